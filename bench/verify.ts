// Live US verification throughput, in-process (one core) and over HTTP, and the ZIP database's load
// time and memory. Usage: node --import tsx bench/verify.ts [--no-http]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipdbStats } from '../engine/domain/verify/zipdb';
import { verifyUsAddress } from '../engine/domain/verify/us-verifier';
import { parseUsAddress } from '../engine/domain/verify/usps';
import type { UsVerificationInput } from '../engine/domain/verify/us-object';
import { ADDRESS_CASES } from '../test/domain/verify/usps/fixtures/addresses';
import { load, printTable, startChild, type LoadResult } from './lib';

const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10;

/** The 277 messy real-world addresses of the Pub 28 table, as request bodies (a last line split up). */
function inputs(): UsVerificationInput[] {
  return ADDRESS_CASES.map(({ input }) => {
    if (typeof input === 'string') return { address: input };
    const last = parseUsAddress({ primaryLine: '', lastLine: input.lastLine ?? '' });
    const zip = input.zipCode ?? [last.zip_code, last.zip_code_plus_4].filter(Boolean).join('-');
    return {
      primary_line: input.primaryLine,
      secondary_line: input.secondaryLine ?? undefined,
      city: input.city ?? last.city,
      state: input.state ?? last.state,
      zip_code: zip || undefined,
    };
  });
}

function zipdbLoad(): { loadMs: number; zips: number; fileKb: number; heapMb: number; rssMb: number } {
  global.gc?.();
  const before = process.memoryUsage();
  const stats = zipdbStats();
  global.gc?.();
  const after = process.memoryUsage();
  return {
    loadMs: stats.loadMs,
    zips: stats.zips,
    fileKb: Math.round(stats.bytes / 1024),
    heapMb: mb(after.heapUsed - before.heapUsed),
    rssMb: mb(after.rss - before.rss),
  };
}

function inProcess(seconds: number): { perSecond: number; deliverable: number; total: number } {
  const bodies = inputs();
  const deliverable = bodies.filter((b) => verifyUsAddress(b).deliverability === 'deliverable').length;
  for (let i = 0; i < 3; i++) for (const b of bodies) verifyUsAddress(b); // warm up
  let n = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    for (const b of bodies) verifyUsAddress(b);
    n += bodies.length;
  }
  return { perSecond: Math.round(n / ((performance.now() - start) / 1000)), deliverable, total: bodies.length };
}

async function overHttp(): Promise<LoadResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-verify-'));
  const child = await startChild('verify-server.ts', { DATABASE_URL: path.join(dir, 'bench.sqlite') });
  try {
    const key = (kind: string) => child.lines.find((l) => l.startsWith(`${kind} `))!.slice(kind.length + 1);
    const headers = (k: string) => ({
      authorization: `Basic ${Buffer.from(`${k}:`).toString('base64')}`,
      'content-type': 'application/json',
    });
    const url = `${child.url}/v1/us_verifications`;
    const body = JSON.stringify({
      primary_line: '210 King Street Suite 6100',
      city: 'San Francisco',
      state: 'CA',
      zip_code: '94107',
    });
    // Warm up: the first live call loads the ZIP database.
    for (let i = 0; i < 200; i++) await fetch(url, { method: 'POST', headers: headers(key('LIVE')), body });
    return [
      await load('live POST /v1/us_verifications', child, { url, method: 'POST', headers: headers(key('LIVE')), body }),
      await load('test POST /v1/us_verifications', child, {
        url,
        method: 'POST',
        headers: headers(key('TEST')),
        body: JSON.stringify({ primary_line: 'po box', zip_code: '94107' }),
      }),
    ];
  } finally {
    child.process.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Measured in a fresh process with --expose-gc, so the heap figure is the database alone. */
function zipdbLoadFresh(): ReturnType<typeof zipdbLoad> {
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', __filename, '--zipdb-only'], {
    encoding: 'utf8',
  });
  return JSON.parse(child.stdout.trim().split('\n').pop()!) as ReturnType<typeof zipdbLoad>;
}

export async function benchVerify(withHttp: boolean): Promise<void> {
  const z = zipdbLoadFresh();
  process.stdout.write(
    `ZIP database: ${z.zips} ZIPs from a ${z.fileKb} kB file, loaded in ${z.loadMs} ms; +${z.heapMb} MB heap, +${z.rssMb} MB RSS\n`,
  );
  const p = inProcess(Number(process.env.VERIFY_SECONDS ?? 5));
  process.stdout.write(
    `live US verifications in-process, one core: ${p.perSecond}/s (${p.deliverable} of ${p.total} table addresses deliverable)\n`,
  );
  if (withHttp) printTable(await overHttp());
}

if (require.main === module) {
  if (process.argv.includes('--zipdb-only')) process.stdout.write(`${JSON.stringify(zipdbLoad())}\n`);
  else void benchVerify(!process.argv.includes('--no-http'));
}
