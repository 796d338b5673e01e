// List pages are spliced from their objects' stored JSON texts where the answer changes nothing in them
// (engine/http/stored-list.ts): the page must be the very bytes the objects' own answers make, on both
// databases, and a text the answer would change goes the usual way.
import test from 'ava';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import { TO } from '../helpers/mail';
import { addresses } from '../../engine/catalog/addresses';
import { spliceStoredList } from '../../engine/http/stored-list';
import { withoutUnsetFields } from '../../engine/http/unset-fields';
import { StoredBody } from '../../engine/store/objects';

const { test: dbTest } = databaseSuite();

async function rawText(url: string, key: string): Promise<string> {
  const response = await fetch(url, {
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
  });
  return response.text();
}

dbTest('a list page is byte for byte the envelope of its objects as each is answered alone', async (t, { engine }) => {
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  // nulls, a `$&` and `$1` (read as patterns by a string replacement), quotes and non-ASCII in the texts
  const bodies = [
    { ...TO, name: 'A $& B $1', description: 'say "hi" to Zoë', metadata: { note: '$$ {x: null}' } },
    { ...TO, name: null, company: 'C\\D', address_line2: null },
    { ...TO, name: 'Ünïcode ✉', email: 'a@example.com' },
  ];
  for (const body of bodies) {
    const created = await api('POST', '/v1/addresses', { json: body });
    t.is(created.status, 200, JSON.stringify(created.body));
  }
  const template = await api('POST', '/v1/templates', { json: { description: 'T $&', html: '<p>{{name}}</p>' } });
  t.is(template.status, 200);

  for (const path of ['/v1/addresses?limit=2', '/v1/addresses?limit=10', '/v1/templates']) {
    const text = await rawText(`${engine.url}${path}`, keys.test);
    const page = JSON.parse(text) as Record<string, unknown> & { data: { id: string }[] };
    const base = path.split('?')[0];
    const alone = await Promise.all(page.data.map(({ id }) => rawText(`${engine.url}${base}/${id}`, keys.test)));
    const expected = JSON.stringify({ ...page, data: [] }).replace('"data":[]', () => `"data":[${alone.join(',')}]`);
    t.is(text, expected, path);
  }
  // the next page, by its cursor, too
  const first = JSON.parse(await rawText(`${engine.url}/v1/addresses?limit=2`, keys.test)) as { next_url: string };
  const second = JSON.parse(await rawText(first.next_url, keys.test)) as { data: { name: string | null }[] };
  t.deepEqual(
    second.data.map((a) => a.name),
    ['A $& B $1'],
  );
});

test('a stored text with a null its schema refuses is parsed and shaped, not spliced', (t) => {
  const object = { id: 'adr_1', address_line1: null, name: null, object: 'address', metadata: {} };
  const answer = { object: 'list', data: [new StoredBody(JSON.stringify(object))], count: 1 };
  const spliced = spliceStoredList(addresses, answer, '2020-02-11');
  t.false('text' in spliced);
  const shaped = withoutUnsetFields(addresses, 'answer' in spliced ? spliced.answer : undefined) as {
    data: Record<string, unknown>[];
  };
  t.false('address_line1' in shaped.data[0], 'address_line1 refuses null: left out');
  t.is(shaped.data[0].name, null, 'name admits null: kept');
});

test('a list with no stored texts is handed on as it is', (t) => {
  const answer = { object: 'list', data: [{ id: 'adr_1' }], count: 1 };
  t.deepEqual(spliceStoredList(addresses, answer, '2020-02-11'), { answer });
});
