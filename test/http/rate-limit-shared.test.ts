// Rate limits counted in the database: two engine processes on one PostgreSQL database share one limit,
// and the same counter works on SQLite when asked for.
import test from 'ava';
import { startEngine, type Db } from '../helpers/engine';
import { serve } from '../helpers/cli';
import { client } from '../helpers/http';
import { DATABASES } from '../helpers/matrix';

const LIMIT = 10;

/** Waits for the start of a fresh 5-second window, so one burst stays inside it. */
async function windowStart(): Promise<void> {
  const wait = 5000 - (Date.now() % 5000) + 50;
  await new Promise((resolve) => setTimeout(resolve, wait));
}

async function burst(calls: ReturnType<typeof client>[], n: number): Promise<number[]> {
  await windowStart();
  return Promise.all(
    Array.from({ length: n }, (_, i) => calls[i % calls.length]('GET', '/v1/addresses?limit=1').then((r) => r.status)),
  );
}

const pgTest = DATABASES.includes('postgres') ? test : test.skip;

pgTest('two engine processes on one PostgreSQL database share one rate limit', async (t) => {
  const first = await startEngine({ db: 'postgres', settings: { rate_limit_per_5s: LIMIT } });
  const second = await serve({ DATABASE_URL: first.databaseUrl, LOG_LEVEL: 'silent' });
  try {
    const statuses = await burst([client(first.url, first.keys.test), client(second.url, first.keys.test)], 3 * LIMIT);
    t.is(statuses.filter((s) => s === 200).length, LIMIT);
    t.is(statuses.filter((s) => s === 429).length, 2 * LIMIT);
  } finally {
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
    await first.close();
  }
});

for (const db of DATABASES) {
  test(`${db}: RATE_LIMITS=database counts exactly under a concurrent burst; 429 carries the spec body and headers`, async (t) => {
    const engine = await startEngine({
      db: db as Db,
      settings: { rate_limit_per_5s: LIMIT },
      env: { RATE_LIMITS: 'database' },
    });
    try {
      const call = client(engine.url, engine.keys.test);
      await windowStart();
      const replies = await Promise.all(Array.from({ length: 2 * LIMIT }, () => call('GET', '/v1/addresses?limit=1')));
      t.is(replies.filter((r) => r.status === 200).length, LIMIT);
      const refused = replies.find((r) => r.status === 429)!;
      t.is(refused.body.error.code, 'rate_limit_exceeded');
      t.is(refused.headers.get('retry-after'), '5');
      t.is(refused.headers.get('x-rate-limit-remaining'), '0');
    } finally {
      await engine.close();
    }
  });
}
