// Webhook delivery survives the engine: a `printpost serve` killed with SIGKILL while a delivery is in
// flight sends that one again once restarted, and none already answered (nothing lost, at most the one
// in flight twice), on SQLite and PostgreSQL; two
// engine processes on one PostgreSQL database deliver every event, none twice to a healthy receiver;
// and the CLI sends a test event and replays one. The tests run at once: most of each is waiting for a
// lease to lapse or a delivery to arrive.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { BIN, serve, unlimitedAsync, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase } from '../../helpers/engine';
import { startReceiver, type Received } from '../../helpers/receiver';
import { TO as ADDRESS } from '../../helpers/mail';

function engineEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ASSET_STORE: fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-assets-')),
    LOG_LEVEL: 'silent',
    ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
    // a hung receiver fails an attempt after 1 s; the job's lease then runs out within ~11 s
    WEBHOOK_TIMEOUT_MS: '1000',
    WEBHOOK_RETRY_BASE_MS: '50',
  };
}

function stop(served: Served, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
  if (served.child.exitCode !== null || served.child.signalCode !== null) return Promise.resolve();
  served.child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
  served.child.kill(signal);
  return exited;
}

const eventIdOf = (r: Received) => (JSON.parse(r.body) as { id: string }).id;

for (const db of DATABASES) {
  test(`${db}: SIGKILL with deliveries in flight: only the unanswered one is sent again, nothing lost`, async (t) => {
    const database = await freshDatabase(db);
    const env = engineEnv(database.url);
    // the first deliveries are answered, the tenth never is (the engine is killed while waiting on it);
    // after the restart everything is answered
    const HUNG = 10;
    const receiver = await startReceiver((call) => (call === HUNG ? { hang: true } : {}));
    let served = await serve(env);
    try {
      await unlimitedAsync(env);
      const api = client(served.url, served.keys['test secret']);
      const created = await api<{ id: string }>('POST', '/v1/webhooks', {
        json: { url: receiver.url, event_types: ['address.created'] },
      });
      t.is(created.status, 200);
      const COUNT = 30;
      // made together, so their deliveries are read as one batch
      const replies = await Promise.all(
        Array.from({ length: COUNT }, (_, i) =>
          api<{ id: string }>('POST', '/v1/addresses', { json: { ...ADDRESS, name: `Person ${i}` } }),
        ),
      );
      t.true(replies.every((r) => r.status === 200));
      await receiver.waitFor(HUNG);
      await stop(served, 'SIGKILL');
      const hung = eventIdOf(receiver.received[HUNG - 1]);
      served = await serve(env);
      await receiver.waitFor(COUNT + 1, 90_000);
      await new Promise((r) => setTimeout(r, 1000)); // anything sent twice more would have come by now
      const ids = receiver.received.map(eventIdOf);
      const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
      t.deepEqual(twice, [hung], 'the one delivery left unanswered by the kill, and no answered one, came twice');
      t.is(new Set(ids).size, COUNT, 'every event delivered');
    } finally {
      await stop(served, 'SIGTERM');
      await receiver.close();
      await database.drop();
    }
  });
}

if (DATABASES.includes('postgres')) {
  test('postgres: two engine processes deliver every event once to a healthy receiver', async (t) => {
    const database = await freshDatabase('postgres');
    const env = engineEnv(database.url);
    const receiver = await startReceiver();
    const engines = [await serve(env)];
    try {
      const key = engines[0].keys['test secret'];
      engines.push(await serve(env));
      await unlimitedAsync(env);
      const [a, b] = engines.map((e) => client(e.url, key));
      const hook = await a<{ id: string }>('POST', '/v1/webhooks', { json: { url: receiver.url, event_types: ['*'] } });
      t.is(hook.status, 200);
      const COUNT = 60;
      const ids = await Promise.all(
        Array.from({ length: COUNT }, async (_, i) => {
          const reply = await (i % 2 ? a : b)<{ id: string }>('POST', '/v1/addresses', {
            json: { ...ADDRESS, name: `Person ${i}` },
          });
          return reply.body.id;
        }),
      );
      const received = await receiver.waitFor(COUNT, 60_000);
      await new Promise((r) => setTimeout(r, 1000));
      const references = receiver.received.map((r) => (JSON.parse(r.body) as { reference_id: string }).reference_id);
      t.is(receiver.received.length, COUNT, 'none twice');
      t.deepEqual([...references].sort(), [...ids].sort());
      t.is(new Set(received.map(eventIdOf)).size, COUNT);
    } finally {
      await Promise.all(engines.map((e) => stop(e, 'SIGTERM')));
      await receiver.close();
      await database.drop();
    }
  });
}

test('the CLI sends a webhook a test event and replays an event to it', async (t) => {
  const database = await freshDatabase('sqlite');
  const env = engineEnv(database.url);
  const receiver = await startReceiver();
  const served = await serve(env);
  try {
    const api = client(served.url, served.keys['test secret']);
    const hook = await api<{ id: string }>('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['address.created'] },
    });
    // asynchronously: the receiver answering the CLI lives in this very process
    const cli = async (...args: string[]) =>
      (await promisify(execFile)(BIN, args, { env: { ...process.env, ...env } })).stdout;
    t.regex(await cli('webhooks', 'test', hook.body.id), /^succeeded\tHTTP 200\t\d+ ms/);
    const [sample] = await receiver.waitFor(1);
    t.like(JSON.parse(sample.body), { object: 'event', event_type: { id: 'address.created' } });
    await api('POST', '/v1/addresses', { json: ADDRESS });
    const [, delivered] = await receiver.waitFor(2);
    const eventId = eventIdOf(delivered);
    t.regex(await cli('webhooks', 'replay', eventId, '--webhook', hook.body.id), /^queued /);
    const [, , replayed] = await receiver.waitFor(3);
    t.is(eventIdOf(replayed), eventId);
    const refused = await cli('webhooks', 'replay', 'evt_nothing', '--webhook', hook.body.id).then(
      () => '',
      (error: { stderr?: string }) => String(error.stderr),
    );
    t.regex(refused, /no event evt_nothing/);
  } finally {
    await stop(served, 'SIGTERM');
    await receiver.close();
    await database.drop();
  }
});
