// What a fuzz run watches in the engine's process besides its answers: open descriptors, files left in
// the upload folder, resident memory, and how fast `GET /health` answers. Linux only (/proc).
import fs from 'node:fs';
import http from 'node:http';

/**
 * The most resident memory an engine under the fuzz run may hold. A healthy engine (API only, no
 * render workers) sits near 300 MB with tsx's compiled sources; the largest thing a request may hold
 * at once is a 20 MB upload (MAX_FILE_BYTES) and what pdf-lib builds of it. Holding any bomb decoded
 * would pass it: the 19000x12920 px PNG alone is 982 MB as RGBA, the 30000x30000 px image 3.6 GB.
 */
export const RSS_CEILING_BYTES = 1.5 * 1024 ** 3;

/** How long `GET /health` may take while the run goes on (checked by `npm run fuzz`, not by ava). */
export const HEALTH_CEILING_MS = 1000;

/** Descriptors slack between the counts before and after a run: pool connections, a lazily opened file. */
export const DESCRIPTOR_SLACK = 4;

export const openDescriptors = (pid: number): number => fs.readdirSync(`/proc/${pid}/fd`).length;

export const uploadFilesLeft = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const found = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!found) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(found[1]) * 1024;
}

/** Resident memory now, in bytes. */
export const rssBytes = (pid: number): number => statusField(pid, 'VmRSS');

/** The most resident memory the process has held since it started (the kernel's high-water mark). */
export const peakRssBytes = (pid: number): number => statusField(pid, 'VmHWM');

export const mb = (bytes: number): string => `${Math.round(bytes / 1_048_576)} MB`;

/**
 * `GET /health` on a connection of its own (never queued behind the fuzz requests' sockets): its
 * status (0 when no answer came within `timeoutMs`) and how long it took.
 */
export function probeHealth(base: string, timeoutMs = 10_000): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number) => resolve({ status, ms: performance.now() - started });
    const req = http.get(new URL('/health', base), { agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
      res.on('error', () => done(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => done(0));
  });
}
