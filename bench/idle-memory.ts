// What an idle engine holds: the resident memory of an engine with 2 workers (its own, which includes
// the merge and thumbnail threads, and its browser's processes) at start, right after a burst of
// renders, and a minute after the last render, with the default RENDER_IDLE_MS (the browser and threads
// stopped by then; the aim: the whole tree under 300 MB).
// Run: node --import tsx bench/idle-memory.ts   (also part of `npm run bench`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './lib';
import { rss } from './render';
import { client } from '../test/helpers/http';
import { postcard } from '../test/helpers/mail';

const PIECES = 10;
const AFTER_MS = 60_000;

const mb = (kb: number) => `${Math.round(kb / 1024)} MB`;

export async function benchIdleMemory(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-idle-'));
  const child = await startChild('engine-server.ts', {
    DATABASE_URL: path.join(dir, 'engine.sqlite'),
    ASSET_STORE: path.join(dir, 'assets'),
    WORKERS: '2',
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
    await new Promise((r) => setTimeout(r, AFTER_MS));
    const after = rss(pid);
    row('a minute after the last', after, await state());
    process.stdout.write(
      `  process tree a minute after the last render: ${mb(after.own + after.children)} (aim: < 300 MB)\n`,
    );
  } finally {
    child.process.kill('SIGINT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void benchIdleMemory();
