// Cancel (window and send_date), idempotent creates under concurrency, and uploaded artwork stored in
// the asset store and recorded in the database with the piece, on both databases over real HTTP.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import knex from 'knex';
import { databaseSuite } from '../helpers/suite';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import sharp from 'sharp';
import { FROM, LETTER_IN, TO, daysAhead, postcard, minimalPdf, verifiedBankAccount } from '../helpers/mail';

const { test, serial } = databaseSuite();

function database(engine: TestEngine) {
  return knex(
    engine.db === 'sqlite'
      ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
      : { client: 'pg', connection: engine.databaseUrl },
  );
}

test('cancel within the window answers {id, deleted}, records the event, and the piece is gone', async (t, {
  api,
  engine,
}) => {
  const piece = (await api('POST', '/v1/postcards', { json: postcard() })).body;
  const cancelled = await api('DELETE', `/v1/postcards/${piece.id}`);
  t.is(cancelled.status, 200);
  t.deepEqual(cancelled.body, { id: piece.id, deleted: true });
  t.is((await api('GET', `/v1/postcards/${piece.id}`)).status, 404);
  t.is((await api('DELETE', `/v1/postcards/${piece.id}`)).status, 404, 'a second cancel finds nothing');
  const db = database(engine);
  try {
    const types = (await db('events').where({ reference_id: piece.id }).select('event_type')).map((e) => e.event_type);
    t.deepEqual(types.sort(), ['postcard.created', 'postcard.deleted']);
  } finally {
    await db.destroy();
  }
});

serial(
  'after the window a piece is not_deletable; a future send_date keeps it cancellable',
  async (t, { api, engine }) => {
    const name = `window-${Math.random()}`;
    const keys = await engine.createAccount(name);
    await engine.setSetting('cancellation_window_minutes', 0, name);
    const now = (await api('POST', '/v1/letters', { key: keys.test, json: letterBody() })).body;
    const refused = await api('DELETE', `/v1/letters/${now.id}`, { key: keys.test });
    t.is(refused.status, 422);
    t.is(refused.body.error.code, 'not_deletable');
    t.is((await api('GET', `/v1/letters/${now.id}`, { key: keys.test })).status, 200, 'still there');
    const later = (await api('POST', '/v1/letters', { key: keys.test, json: letterBody({ send_date: daysAhead(2) }) }))
      .body;
    t.deepEqual((await api('DELETE', `/v1/letters/${later.id}`, { key: keys.test })).body, {
      id: later.id,
      deleted: true,
    });
    const other = await api('DELETE', `/v1/letters/${later.id}`);
    t.is(other.status, 404, 'another account cannot see it');
  },
);

const letterBody = (extra: Record<string, unknown> = {}) => ({
  to: TO,
  from: FROM,
  file: '<p>Hi</p>',
  color: true,
  use_type: 'operational',
  ...extra,
});

serial('50 concurrent creates with one Idempotency-Key make one piece', async (t, { api }) => {
  const key = `idem-${Math.random()}`;
  const batch = `idem-${Math.random().toString(36).slice(2)}`;
  const replies = await Promise.all(
    Array.from({ length: 50 }, () =>
      api('POST', '/v1/postcards', { json: postcard({ metadata: { batch } }), headers: { 'Idempotency-Key': key } }),
    ),
  );
  const ok = replies.filter((r) => r.status === 200);
  t.true(ok.length >= 1);
  t.true(
    replies.every((r) => r.status === 200 || r.status === 409),
    JSON.stringify(replies.map((r) => r.status)),
  );
  t.is(new Set(ok.map((r) => r.body.id)).size, 1, 'every success is the same piece');
  const listed = await api('GET', `/v1/postcards?metadata[batch]=${batch}&include[]=total_count`);
  t.is(listed.body.total_count, 1);
  const again = await api('POST', `/v1/postcards?idempotency_key=${encodeURIComponent(key)}`, {
    json: postcard({ metadata: { batch } }),
  });
  t.is(again.body.id, ok[0].body.id, 'the query form names the same key');
});

test('two engine processes on one database: concurrent creates with one key make one check', async (t, {
  engine,
  db,
}) => {
  if (db !== 'postgres') {
    t.pass('several processes share PostgreSQL only');
    return;
  }
  const second = await startEngine({ db, shareWith: engine });
  try {
    const apis = [client(engine.url, engine.keys.test), client(second.url, engine.keys.test)];
    const bank = await verifiedBankAccount(apis[0]);
    const key = `two-${Math.random()}`;
    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        apis[i % 2]('POST', '/v1/checks', {
          json: { to: TO, from: FROM, bank_account: bank, amount: 5, use_type: 'operational' },
          headers: { 'Idempotency-Key': key },
        }),
      ),
    );
    const ids = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.id));
    t.is(ids.size, 1, JSON.stringify(replies.map((r) => r.status)));
    const list = await apis[1]('GET', '/v1/checks?limit=100');
    t.is(list.body.data.filter((c: { bank_account: { id: string } }) => c.bank_account.id === bank).length, 1);
  } finally {
    await second.close();
  }
});

/** A 4x6 postcard side (6.25x4.25 in with bleed) at 300 DPI, as the artwork checks ask. */
const postcardPng = () =>
  sharp({ create: { width: 1875, height: 1275, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();

async function multipart(
  engine: TestEngine,
  path: string,
  fields: Record<string, string>,
  files: Record<string, [Buffer, string]>,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, [bytes, name]] of Object.entries(files)) form.append(k, new Blob([bytes]), name);
  const response = await fetch(`${engine.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

const addressFields = (prefix: string, address: Record<string, string>) =>
  Object.fromEntries(Object.entries(address).map(([k, v]) => [`${prefix}[${k}]`, v]));

test('uploaded PDF and PNG artwork is stored in the database with the piece; anything else is invalid_file', async (t, {
  engine,
}) => {
  const pdf = minimalPdf('Front');
  const reply = await multipart(
    engine,
    '/v1/postcards',
    { ...addressFields('to', TO), ...addressFields('from', FROM), use_type: 'marketing', 'merge_variables[name]': 'H' },
    { front: [pdf, 'front.pdf'], back: [await postcardPng(), 'back.png'] },
  );
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.to.name, 'HARRY ZHANG');
  const db = database(engine);
  try {
    const inputs = JSON.parse((await db('piece_inputs').where({ piece_id: reply.body.id }).first()).inputs);
    t.like(inputs.artwork.front, {
      kind: 'file',
      content_type: 'application/pdf',
      filename: 'front.pdf',
      size: pdf.length,
    });
    t.like(inputs.artwork.back, { kind: 'file', content_type: 'image/png' });
    const blob = await db('blobs').where({ id: inputs.artwork.front.blob_id }).first();
    t.is(blob.sha256, createHash('sha256').update(pdf).digest('hex'));
    t.is(blob.bytes, null, 'the file is in the asset store, not the row');
    t.true(readFileSync(join(engine.assets, blob.asset_key)).equals(pdf), 'the bytes read back are the bytes sent');
  } finally {
    await db.destroy();
  }

  const text = await multipart(
    engine,
    '/v1/postcards',
    { ...addressFields('to', TO), use_type: 'marketing', back: '<p>b</p>' },
    { front: [Buffer.from('plain words, no file format'), 'notes.txt'] },
  );
  t.is(text.status, 422);
  t.is(text.body.error.code, 'invalid_file');
  const notAFileField = await multipart(
    engine,
    '/v1/postcards',
    { ...addressFields('to', TO), use_type: 'marketing', front: '<p>f</p>', back: '<p>b</p>' },
    { description: [pdf, 'x.pdf'] },
  );
  t.is(notAFileField.status, 422);
});

test('a letter file uploaded as HTML, and a check attachment as PDF, are taken', async (t, { engine, api }) => {
  const letter = await multipart(
    engine,
    '/v1/letters',
    { ...addressFields('to', TO), ...addressFields('from', FROM), use_type: 'operational', color: 'true' },
    { file: [Buffer.from('<html><body><p>Dear {{name}}</p></body></html>'), 'letter.html'] },
  );
  t.is(letter.status, 200, JSON.stringify(letter.body));
  t.is(letter.body.color, true, 'form booleans are coerced');
  const bank = await verifiedBankAccount(api);
  const check = await multipart(
    engine,
    '/v1/checks',
    {
      ...addressFields('to', TO),
      ...addressFields('from', FROM),
      use_type: 'operational',
      bank_account: bank,
      amount: '10.25',
    },
    { attachment: [minimalPdf('Invoice', ...LETTER_IN), 'invoice.pdf'] },
  );
  t.is(check.status, 200, JSON.stringify(check.body));
  t.is(check.body.amount, 10.25);
  t.false('attachment_template_id' in check.body, 'left out when unset, as the vendor types it');
});
