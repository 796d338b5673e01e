// What an idle engine holds: the resident memory of an engine with 2 workers (its own, which includes
// the merge and thumbnail threads, and its browser's processes) at start, right after a burst of
// renders, and once RENDER_IDLE_MS has passed without one (the browser and threads stopped).
// Run: node --import tsx bench/idle-memory.ts   (also part of `npm run bench`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './lib';
import { rss } from './render';
import { client } from '../test/helpers/http';
import { postcard } from '../test/helpers/mail';

const IDLE_MS = 3_000;
const PIECES = 10;

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

export async function benchIdleMemory(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-idle-'));
  const child = await startChild('engine-server.ts', {
    DATABASE_URL: path.join(dir, 'engine.sqlite'),
    ASSET_STORE: path.join(dir, 'assets'),
    WORKERS: '2',
    RENDER_IDLE_MS: String(IDLE_MS),
  });
  const pid = child.process.pid!;
  const key = child.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const call = client(child.url, key);
  const state = async () =>
    ((await call<{ renderer: { state: string } }>('GET', '/health')).body.renderer?.state ?? 'none') as string;
  const row = (label: string, at: { own: number; children: number }, renderer: string) =>
    process.stdout.write(
      `${label.padEnd(28)} engine ${mb(at.own).padStart(7)}   browser ${mb(at.children).padStart(7)}   renderer ${renderer}\n`,
    );
  try {
    await new Promise((r) => setTimeout(r, 1_000));
    row('at start', rss(pid), await state());
    const ids = await Promise.all(
      Array.from(
        { length: PIECES },
        async () => (await call<{ id: string }>('POST', '/v1/postcards', { json: postcard() })).body.id,
      ),
    );
    for (const id of ids) {
      while (
        (await call<{ status: string; thumbnails: unknown[] }>('GET', `/v1/postcards/${id}`)).body.thumbnails.length ===
        0
      )
        await new Promise((r) => setTimeout(r, 100));
    }
    row(`after ${PIECES} postcards`, rss(pid), await state());
    while ((await state()) !== 'idle') await new Promise((r) => setTimeout(r, 200));
    // the threads' idle periods end with the browser's, give or take the last thumbnails
    await new Promise((r) => setTimeout(r, IDLE_MS));
    row(`idle again (${IDLE_MS} ms)`, rss(pid), await state());
  } finally {
    child.process.kill('SIGINT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void benchIdleMemory();
