// kill -9 during concurrent idempotent creates: after a restart every retry gets the object that was
// committed or creates it afresh once the dead request's lease lapses; never a lasting 409, never two.
// The SQLite and PostgreSQL cases run at once, each on its own database and processes.
import test from 'ava';
import { startEngine } from '../helpers/engine';
import { serve, type Served } from '../helpers/cli';
import { client, type Reply } from '../helpers/http';
import { DATABASES } from '../helpers/matrix';

const LEASE_MS = 1500;
const ACKNOWLEDGED_BEFORE_KILL = 60;
const body = (key: string) => ({
  name: 'Crash Test',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
  metadata: { ikey: key },
});

async function kill(served: Served): Promise<void> {
  const exited = new Promise((resolve) => served.child.once('exit', resolve));
  served.child.kill('SIGKILL');
  await exited;
}

for (const db of DATABASES) {
  test(`${db}: kill -9 under concurrent idempotent creates: every retry gets the committed object or a fresh one, one per key`, async (t) => {
    const base = await startEngine({ db, settings: { rate_limit_per_5s: 1_000_000 } });
    const env = { DATABASE_URL: base.databaseUrl, IDEMPOTENCY_LEASE_MS: String(LEASE_MS), LOG_LEVEL: 'silent' };
    let first: Served | undefined;
    let second: Served | undefined;
    try {
      first = await serve(env);
      const before = client(first.url, base.keys.test);
      const acknowledged = new Map<string, string>();
      const keys: string[] = [];
      // 30 workers keep creating until the process dies, so the kill always lands mid-request.
      let dead = false;
      const worker = async () => {
        while (!dead) {
          const key = `crash-${db}-${keys.length}`;
          keys.push(key);
          const reply = await before('POST', '/v1/addresses', {
            json: body(key),
            headers: { 'Idempotency-Key': key },
          }).catch(() => undefined);
          if (reply?.status === 200) acknowledged.set(key, reply.body.id);
          if (acknowledged.size >= ACKNOWLEDGED_BEFORE_KILL && !dead) {
            dead = true;
            await kill(first!);
          }
        }
      };
      await Promise.all(Array.from({ length: 30 }, worker));
      t.true(acknowledged.size < keys.length, 'some requests were cut off by the kill');

      second = await serve(env);
      const after = client(second.url, base.keys.test);
      let conflicts = 0;
      const finals = new Map<string, string>();
      await Promise.all(
        keys.map(async (key) => {
          const deadline = Date.now() + LEASE_MS + 5000;
          let reply: Reply;
          for (;;) {
            reply = await after('POST', '/v1/addresses', { json: body(key), headers: { 'Idempotency-Key': key } });
            if (reply.status !== 409 || Date.now() > deadline) break;
            conflicts += 1;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
          t.is(reply.status, 200, `${key}: ${JSON.stringify(reply.body)}`);
          finals.set(key, reply.body.id);
          if (acknowledged.has(key))
            t.is(reply.body.id, acknowledged.get(key), `${key}: the acknowledged object comes back`);
        }),
      );
      for (const key of keys) {
        const listed = await after('GET', `/v1/addresses?limit=5&metadata[ikey]=${key}`);
        t.deepEqual(
          listed.body.data.map((a: { id: string }) => a.id),
          [finals.get(key)],
          `${key}: exactly one object`,
        );
      }
      t.log(
        `${db}: ${acknowledged.size} of ${keys.length} acknowledged before the kill; ${conflicts} brief 409s while leases lapsed`,
      );
    } finally {
      if (first && first.child.exitCode === null && first.child.signalCode === null) await kill(first);
      if (second) await kill(second);
      await base.close();
    }
  });
}
