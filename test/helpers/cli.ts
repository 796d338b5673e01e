// Runs `printpost serve` as its own process and reads what it prints.
import path from 'node:path';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';

export const BIN = path.join(__dirname, '..', '..', 'bin', 'printpost');

export interface Served {
  child: ChildProcess;
  url: string;
  keys: Record<string, string>;
  lines: string[];
}

/** `printpost serve` with `env`; `args` after `serve` (`--no-workers`). */
export function serve(env: Record<string, string>, args: string[] = []): Promise<Served> {
  return new Promise((resolve, reject) => {
    // No render workers unless asked (WORKERS): a browser per spawned engine is not what most tests are about.
    const child = spawn(BIN, ['serve', ...args], { env: { ...process.env, PORT: '0', WORKERS: '0', ...env } });
    const lines: string[] = [];
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${lines.join('\n')}`)), 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const parts = buffer.split('\n');
      buffer = parts.pop()!;
      lines.push(...parts);
      // The banner is one write (under the pipe's atomic size), so it arrives whole.
      if (lines.some((l) => l.includes('listening on')) && lines.some((l) => l.includes('LOG_LEVEL='))) {
        clearTimeout(timer);
        const url = /listening on (\S+)/.exec(lines.join('\n'))![1];
        const keys = Object.fromEntries(
          lines
            .map((l) => /^\s+(test|live) (secret|publishable):\s+(\S+)/.exec(l))
            .filter(Boolean)
            .map((m) => [`${m![1]} ${m![2]}`, m![3]]),
        );
        resolve({ child, url, keys, lines });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${lines.join('\n')}`)));
  });
}

export interface Ran {
  code: number | null;
  out: string;
  err: string;
}

/**
 * `printpost <args>` as its own process, without blocking this one, so a file's tests and a test's
 * independent commands run side by side; what it printed and its exit code.
 */
export function run(args: string[], env: Record<string, string> = {}, timeoutMs = 60_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(BIN, args, { env: { ...process.env, ...env }, timeout: timeoutMs });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Lifts the default account's rate limit (load tests and benchmarks); the engine sees it within KEY_CACHE_MS. */
export function unlimited(env: Record<string, string>): void {
  execFileSync(BIN, ['settings', 'set', 'rate_limit_per_5s', '10000000'], { env: { ...process.env, ...env } });
}

/**
 * `unlimited` without blocking this process: tests running concurrently in one file keep their timers
 * (a kill that must follow a condition closely, a print room polling the outbox) while the CLI runs.
 */
export async function unlimitedAsync(env: Record<string, string>): Promise<void> {
  const ran = await run(['settings', 'set', 'rate_limit_per_5s', '10000000'], env);
  if (ran.code !== 0) throw new Error(`printpost settings set failed: ${ran.err}`);
}
