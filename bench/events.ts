// Event delivery through the engine to a local receiver: how many events a second reach one webhook
// (2,000 addresses created at once, then the time until the last arrives), and how long a create
// takes to reach the receiver at a steady 100 creates a second for 20 s (p50, p99).
// Usage: node --import tsx bench/events.ts [--pg]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { rssMb, startChild } from './lib';
import { startReceiver } from '../test/helpers/receiver';
import { TO as ADDRESS } from '../test/helpers/mail';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function database(pg: boolean): Promise<{ url: string; drop(): Promise<void> }> {
  if (!pg) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-events-'));
    return { url: path.join(dir, 'bench.sqlite'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_events_${process.pid}`;
  const admin = knex({ client: 'pg', connection: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.raw(`drop database if exists ${name}`);
  await admin.raw(`create database ${name}`);
  return {
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop: async () => {
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

export async function benchEvents(pg: boolean): Promise<void> {
  const db = await database(pg);
  const receiver = await startReceiver();
  const engine = await startChild('engine-server.ts', {
    DATABASE_URL: db.url,
    ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
    ASSET_STORE: fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-assets-')),
  });
  try {
    const key = engine.lines.map((l) => /^KEY (\S+)/.exec(l)?.[1]).find(Boolean)!;
    const auth = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    const post = (p: string, body: unknown) =>
      fetch(`${engine.url}${p}`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/v1/webhooks', { url: receiver.url, event_types: ['address.created'] });

    // throughput: a backlog of 2,000 events, then the time until the receiver has them all
    const BACKLOG = 2000;
    const started = Date.now();
    for (let i = 0; i < BACKLOG; i += 50)
      await Promise.all(Array.from({ length: 50 }, () => post('/v1/addresses', ADDRESS)));
    const created = Date.now();
    await receiver.waitFor(BACKLOG, 300_000);
    const done = Date.now();
    const perSecond = Math.round((BACKLOG / (done - started)) * 1000);
    process.stdout.write(
      `${pg ? 'PostgreSQL' : 'SQLite'}: ${BACKLOG} events delivered in ${done - started} ms (${perSecond} events/s end to end; creates took ${created - started} ms)\n`,
    );

    // latency: 100 creates a second for 20 s; each create's time to the receiver
    const sent = new Map<string, number>();
    const before = receiver.received.length;
    const RATE = 100;
    const SECONDS = 20;
    for (let s = 0; s < SECONDS; s++) {
      const tick = Date.now();
      for (let i = 0; i < RATE; i++) {
        const at = Date.now();
        void post('/v1/addresses', ADDRESS)
          .then((r) => r.json() as Promise<{ id: string }>)
          .then((a) => sent.set(a.id, at));
        await new Promise((r) => setTimeout(r, Math.max(0, tick + ((i + 1) * 1000) / RATE - Date.now())));
      }
    }
    await receiver.waitFor(before + RATE * SECONDS, 120_000);
    const latencies = receiver.received
      .slice(before)
      .map((r) => {
        const event = JSON.parse(r.body) as { reference_id: string };
        return r.at - (sent.get(event.reference_id) ?? r.at);
      })
      .sort((a, b) => a - b);
    process.stdout.write(
      `${pg ? 'PostgreSQL' : 'SQLite'}: create -> webhook at ${RATE}/s for ${SECONDS} s: p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms, max ${latencies[latencies.length - 1]} ms; engine RSS ${rssMb(engine.process.pid!)} MB\n`,
    );
  } finally {
    engine.process.kill('SIGINT');
    await receiver.close();
    await db.drop();
  }
}

if (require.main === module) void benchEvents(process.argv.includes('--pg'));
