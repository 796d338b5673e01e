// Several engine processes over one PostgreSQL database: one deployment, one truth.
import test from 'ava';
import { startEngine } from '../helpers/engine';
import { serve } from '../helpers/cli';
import { client } from '../helpers/http';
import { DATABASES } from '../helpers/matrix';

const US = {
  name: 'Ada',
  address_line1: '1 Main St',
  address_city: 'Springfield',
  address_state: 'IL',
  address_zip: '62701',
};

const pgTest = DATABASES.includes('postgres') ? test : test.skip;

pgTest(
  'a second engine process on the same PostgreSQL database sees the same objects, keys and idempotency keys',
  async (t) => {
    const first = await startEngine({ db: 'postgres' });
    const second = await serve({ DATABASE_URL: first.databaseUrl });
    try {
      t.is(Object.keys(second.keys).length, 0, 'the second process creates no account');
      const a = client(first.url, first.keys.test);
      const b = client(second.url, first.keys.test);
      const created = await a('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'shared' } });
      t.is(created.status, 200);
      t.deepEqual((await b('GET', `/v1/addresses/${created.body.id}`)).body, created.body);
      const repeat = await b('POST', '/v1/addresses', { json: US, headers: { 'Idempotency-Key': 'shared' } });
      t.is(repeat.body.id, created.body.id, 'the idempotency key holds across processes');
      const deleted = await b('DELETE', `/v1/addresses/${created.body.id}`);
      t.true(deleted.body.deleted);
      t.is((await a('GET', `/v1/addresses/${created.body.id}`)).status, 404);
      const pages = await Promise.all([a, b].map((call) => call('GET', '/v1/addresses?include[]=total_count')));
      t.is(pages[0].body.total_count, pages[1].body.total_count);
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((resolve) => second.child.once('exit', resolve));
      await first.close();
    }
  },
);
