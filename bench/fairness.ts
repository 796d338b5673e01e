// One tenant never slows another: account A's create -> webhook latency (p50, p99 over 40 events, 5 a
// second) alone, then while account B keeps 12 webhooks busy on a receiver that answers after 20 s
// (WEBHOOK_TIMEOUT_MS 25 s) and creates 5 events a second. Each process delivers 8 at a time; B may
// hold at most half of them (engine/domain/events/account-slots.ts).
// Usage: node --import tsx bench/fairness.ts [--pg]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './lib';
import { startReceiver, type Receiver } from '../test/helpers/receiver';
import { TO as ADDRESS } from '../test/helpers/mail';
import { freshDatabase } from '../test/helpers/engine';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const EVENTS = 40;
const RATE = 5;

type Post = (path: string, body: unknown) => Promise<{ id: string }>;

function poster(url: string, key: string): Post {
  const auth = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  return async (p, body) => {
    const reply = await fetch(`${url}${p}`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await reply.json()) as { id: string };
  };
}

/** A's latencies: EVENTS creates at RATE a second, each one's time until A's receiver has it. */
async function measure(post: Post, receiver: Receiver): Promise<number[]> {
  const before = receiver.received.length;
  const sent = new Map<string, number>();
  for (let i = 0; i < EVENTS; i++) {
    const at = Date.now();
    sent.set((await post('/v1/addresses', ADDRESS)).id, at);
    await new Promise((r) => setTimeout(r, 1000 / RATE));
  }
  await receiver.waitFor(before + EVENTS, 120_000);
  return receiver.received
    .slice(before)
    .map((r) => r.at - (sent.get((JSON.parse(r.body) as { reference_id: string }).reference_id) ?? r.at))
    .sort((a, b) => a - b);
}

export async function benchFairness(pg: boolean): Promise<void> {
  const db = await freshDatabase(pg ? 'postgres' : 'sqlite');
  const quiet = await startReceiver();
  const slow = await startReceiver(() => ({ delayMs: 20_000 }));
  const engine = await startChild('engine-server.ts', {
    DATABASE_URL: db.url,
    ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '25000',
    BENCH_SECOND_ACCOUNT: '1',
    ASSET_STORE: fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-assets-')),
  });
  const label = pg ? 'PostgreSQL' : 'SQLite';
  let noise: NodeJS.Timeout | undefined;
  try {
    const key = (prefix: string) =>
      engine.lines.map((l) => new RegExp(`^${prefix} (\\S+)`).exec(l)?.[1]).find(Boolean)!;
    const a = poster(engine.url, key('KEY'));
    const b = poster(engine.url, key('KEY2'));
    await a('/v1/webhooks', { url: quiet.url, event_types: ['address.created'] });
    const report = (what: string, latencies: number[]) =>
      process.stdout.write(
        `${label}: A's create -> webhook ${what}: p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${latencies[latencies.length - 1]} ms\n`,
      );
    report('alone', await measure(a, quiet));
    for (let i = 0; i < 12; i++)
      await b('/v1/webhooks', { url: `${slow.url}?n=${i}`, event_types: ['address.created'] });
    noise = setInterval(() => void b('/v1/addresses', ADDRESS).catch(() => undefined), 1000 / RATE);
    await slow.waitFor(1, 10_000);
    report("while B's 12 webhooks wait 20 s an answer", await measure(a, quiet));
  } finally {
    clearInterval(noise);
    engine.process.kill('SIGKILL');
    await quiet.close();
    await slow.close();
    await db.drop();
  }
}

if (require.main === module) void benchFairness(process.argv.includes('--pg'));
