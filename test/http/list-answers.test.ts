// Repeated list pages are answered from their kept JSON text on SQLite (engine/http/list-answers.ts): the
// answer must be the same bytes a fresh read gives, show every write committed since by any connection
// (this engine, a second engine on the same database, another process writing the file), and never
// cross accounts, modes or queries. The same tests run on PostgreSQL, where nothing is kept.
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import { startEngine } from '../helpers/engine';
import { TO } from '../helpers/mail';
import { ListAnswers } from '../../engine/http/list-answers';

const { test: dbTest } = databaseSuite();

const address = (name: string) => ({ ...TO, name });

const ids = (body: { data: { id: string }[] }) => body.data.map((a) => a.id);

/** The page as the wire carries it: status, type and the exact text. */
async function raw(url: string, key: string): Promise<{ status: number; type: string | null; text: string }> {
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

dbTest('a repeated page is the same bytes as the first read', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  for (const name of ['A', 'B', 'C']) await api('POST', '/v1/addresses', { json: address(name) });
  const url = `${engine.url}/v1/addresses?limit=2`;
  const first = await raw(url, keys.test);
  const again = await raw(url, keys.test);
  t.is(first.status, 200);
  t.is(first.type, 'application/json; charset=utf-8');
  t.deepEqual(again, first);
  const page = JSON.parse(first.text) as { data: unknown[]; next_url: string };
  t.is(page.data.length, 2);
  t.true(page.next_url.startsWith(`${engine.url}/v1/addresses?limit=2&after=`));
});

dbTest('a repeated page shows every write committed since, by this engine or another', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const a = (await api('POST', '/v1/addresses', { json: address('A') })).body.id as string;
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [a]);
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [a]);

  const b = (await api('POST', '/v1/addresses', { json: address('B') })).body.id as string;
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [b, a]);

  // a second engine on the same database: its own connections, its own (empty) cache
  const second = await startEngine({ shareWith: engine });
  try {
    t.is((await client(second.url, keys.test)('DELETE', `/v1/addresses/${a}`)).status, 200);
  } finally {
    await second.close();
  }
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [b]);

  t.is((await api('DELETE', `/v1/addresses/${b}`)).status, 200);
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), []);
});

dbTest('a write to the database by another process shows on the next read', async (t, { engine, db }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const a = (await api('POST', '/v1/addresses', { json: address('A') })).body.id as string;
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [a]);
  t.deepEqual(ids((await api('GET', '/v1/addresses')).body), [a]);
  // another process (an operator's script, another engine) changes the row behind this engine's back
  const changed =
    db === 'sqlite' ? "json_set(body, '$.name', 'CHANGED')" : `jsonb_set(body::jsonb, '{name}', '"CHANGED"')::text`;
  const script = `
    const knex = require('knex');
    const [db, url, id, changed] = process.argv.slice(1);
    const connection = db === 'sqlite'
      ? knex({ client: 'better-sqlite3', connection: { filename: url }, useNullAsDefault: true })
      : knex({ client: 'pg', connection: url });
    connection('objects').where({ id }).update({ body: connection.raw(changed) })
      .then(() => connection.destroy(), (error) => { console.error(error); process.exit(1); });`;
  execFileSync(process.execPath, ['-e', script, db, engine.databaseUrl, a, changed], { cwd: process.cwd() });
  t.is((await api('GET', '/v1/addresses')).body.data[0].name, 'CHANGED');
});

dbTest('kept pages never cross accounts, modes or queries', async (t, { engine }) => {
  const oneName = `cache-one-${Date.now()}`;
  const one = await engine.createAccount(oneName);
  await engine.setSetting('payment_method_verified', true, oneName);
  const two = await engine.createAccount();
  const inOne = (await client(engine.url, one.test)('POST', '/v1/addresses', { json: address('One') })).body.id;
  const inTwo = (await client(engine.url, two.test)('POST', '/v1/addresses', { json: address('Two') })).body.id;
  await client(engine.url, one.test)('POST', '/v1/addresses', { json: address('One again') });
  for (let round = 0; round < 2; round++) {
    t.is(ids((await client(engine.url, one.test)('GET', '/v1/addresses?limit=1')).body).length, 1);
    t.is((await client(engine.url, one.test)('GET', '/v1/addresses?limit=2')).body.count, 2);
    t.deepEqual(ids((await client(engine.url, two.test)('GET', '/v1/addresses?limit=1')).body), [inTwo]);
    t.false(ids((await client(engine.url, one.test)('GET', '/v1/addresses?limit=2')).body).includes(inTwo));
    t.true(ids((await client(engine.url, one.test)('GET', '/v1/addresses?limit=2')).body).includes(inOne));
    const live = await client(engine.url, one.live)('GET', '/v1/addresses?limit=2');
    t.is(live.status, 200);
    t.deepEqual(ids(live.body), [], 'live mode has no test addresses');
  }
});

test('the cache holds a bounded number of pages and characters, and drops all at a new stamp', (t) => {
  const cache = new ListAnswers();
  t.is(cache.get('k0', 1), undefined);
  for (let i = 0; i < 1000; i++) cache.set(`k${i}`, 1, 'x'.repeat(100));
  t.is(cache.get('k0', 1), undefined, 'the oldest pages make way');
  t.is(cache.get('k999', 1), 'x'.repeat(100));
  let kept = 0;
  for (let i = 0; i < 1000; i++) if (cache.get(`k${i}`, 1) !== undefined) kept++;
  t.true(kept <= 256 && kept > 0, `${kept} pages kept`);
  cache.set('huge', 1, 'x'.repeat(1_000_000));
  t.is(cache.get('huge', 1), undefined, 'a page past the entry bound is not kept');
  for (let i = 0; i < 100; i++) cache.set(`big${i}`, 1, 'y'.repeat(200_000));
  let chars = 0;
  for (let i = 0; i < 100; i++) chars += cache.get(`big${i}`, 1)?.length ?? 0;
  t.true(chars <= 4_000_000, `${chars} characters kept`);
  t.is(cache.get('k999', 2), undefined, 'a new stamp empties the cache');
  cache.set('late', 1, 'stale');
  t.is(cache.get('late', 2), undefined, 'a page read before the last change is not kept');
});
