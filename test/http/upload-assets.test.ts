// Uploaded artwork lives in the asset store (`uploads/<piece id>_<field>`), copied there as a stream and hashed
// on the way; its `blobs` row keeps only what is known of it. The renderer reads it back from the store
// (and still reads the bytes of rows written before), a refused create leaves no file behind, and
// `/assets` serves files as streams. On both databases, over real HTTP.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import knex from 'knex';
import { databaseSuite } from '../helpers/suite';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { TO, minimalPdf } from '../helpers/mail';
import { download, settled } from '../print/helpers';

const { test, serial } = databaseSuite({ workers: true });

function database(engine: TestEngine) {
  return knex(
    engine.db === 'sqlite'
      ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
      : { client: 'pg', connection: engine.databaseUrl },
  );
}

const addressFields = (prefix: string, address: Record<string, string>) =>
  Object.fromEntries(Object.entries(address).map(([k, v]) => [`${prefix}[${k}]`, v]));

/** A postcard whose sides are uploaded files, as the given account. */
async function uploadPostcard(engine: TestEngine, sides: Record<string, Buffer>, key = engine.keys.test, extra = {}) {
  const form = new FormData();
  const fields = { ...addressFields('to', TO), use_type: 'marketing', ...extra };
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [side, bytes] of Object.entries(sides)) form.append(side, new Blob([bytes]), `${side}.pdf`);
  const response = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const uploadsOf = (engine: TestEngine) => {
  const folder = path.join(engine.assets, 'uploads');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
};

test('an upload is kept in the asset store, its row holds no bytes, and the piece renders from it', async (t, {
  engine,
  api,
}) => {
  const front = minimalPdf('Front upload');
  const back = minimalPdf('Back upload');
  const created = await uploadPostcard(engine, { front, back });
  t.is(created.status, 200, JSON.stringify(created.body));
  const db = database(engine);
  try {
    const inputs = JSON.parse((await db('piece_inputs').where({ piece_id: created.body.id }).first()).inputs).artwork;
    for (const [side, bytes] of [
      ['front', front],
      ['back', back],
    ] as const) {
      const row = await db('blobs').where({ id: inputs[side].blob_id }).first();
      t.is(row.bytes, null, `${side}: no bytes in the database`);
      t.is(row.asset_key, `uploads/${created.body.id}_${side}`);
      t.is(Number(row.size), bytes.length);
      t.is(row.sha256, createHash('sha256').update(bytes).digest('hex'), `${side}: hashed while copied`);
      t.deepEqual(fs.readFileSync(path.join(engine.assets, row.asset_key)), bytes, `${side}: the stored file`);
    }
  } finally {
    await db.destroy();
  }
  const piece = await settled(api, '/v1/postcards', String(created.body.id), 60_000, true);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  const served = await fetch(String(piece.url));
  t.is(served.status, 200);
  t.is(served.headers.get('content-type'), 'application/pdf');
  const bytes = Buffer.from(await served.arrayBuffer());
  t.is(served.headers.get('content-length'), String(bytes.length), 'a stream of known length');
  t.is(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  const head = await fetch(String(piece.url), { method: 'HEAD' });
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(bytes.length));
});

test('a cancelled piece keeps no uploaded file', async (t, { engine, api }) => {
  const created = await uploadPostcard(engine, { front: minimalPdf('Cancel me'), back: minimalPdf('Back') });
  t.is(created.status, 200, JSON.stringify(created.body));
  const files = ['front', 'back'].map((side) => path.join(engine.assets, 'uploads', `${created.body.id}_${side}`));
  t.true(files.every((file) => fs.existsSync(file)));
  t.is((await api('DELETE', `/v1/postcards/${created.body.id}`)).status, 200);
  t.false(
    files.some((file) => fs.existsSync(file)),
    'removed with the cancel',
  );
});

test('a piece whose render fails keeps no uploaded file', async (t, { engine, api }) => {
  // the back names an image on loopback, which the network guard refuses: the render fails at once
  const created = await uploadPostcard(engine, { front: minimalPdf('Fails') }, engine.keys.test, {
    back: '<img src="http://127.0.0.1:1/x.png">',
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  const front = path.join(engine.assets, 'uploads', `${created.body.id}_front`);
  const piece = await settled(api, '/v1/postcards', String(created.body.id), 60_000, true);
  t.is(piece.status, 'failed');
  // removed right after the failure commits (the status is visible first)
  for (let i = 0; i < 100 && fs.existsSync(front); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  t.false(fs.existsSync(front), 'removed once the piece failed');
});

// serial: it counts the folder's files, which the other tests add to
serial('a create refused after its files were stored leaves none of them', async (t, { engine }) => {
  const before = uploadsOf(engine).length;
  const badBack = await uploadPostcard(engine, { front: minimalPdf('ok'), back: Buffer.from('not a file we take') });
  t.is(badBack.status, 422);
  t.is(badBack.body.error.code, 'invalid_file');
  const name = `strict-uploads-${Math.random()}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('merge_variable_strictness', 'strict', name);
  const form = new FormData();
  for (const [k, v] of Object.entries({ ...addressFields('to', TO), use_type: 'marketing', back: '<p>{{who}}</p>' }))
    form.append(k, v);
  form.append('front', new Blob([minimalPdf('ok')]), 'front.pdf');
  const merge = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${keys.test}:`).toString('base64')}` },
    body: form,
  });
  t.is(merge.status, 422);
  t.is(((await merge.json()) as { error: { code: string } }).error.code, 'merge_variable_required');
  t.is(uploadsOf(engine).length, before, 'no upload file outlives a refused create');
});

test('a piece whose upload row still holds its bytes (written before the asset store kept them) renders', async (t, {
  db: kind,
}) => {
  // the piece is made by an engine without workers, and rendered by a second one started after its
  // row is rewritten
  const api = await startEngine({ db: kind });
  let renderer: TestEngine | undefined;
  try {
    const front = minimalPdf('Old front');
    const created = await uploadPostcard(api, { front, back: minimalPdf('Old back') });
    t.is(created.status, 200, JSON.stringify(created.body));
    // the row as migration 011 leaves an older one: bytes, no key; the file is not in the store
    const db = database(api);
    try {
      const inputs = JSON.parse((await db('piece_inputs').where({ piece_id: created.body.id }).first()).inputs).artwork;
      for (const side of ['front', 'back']) {
        const row = await db('blobs').where({ id: inputs[side].blob_id }).first();
        const bytes = fs.readFileSync(path.join(api.assets, row.asset_key));
        await db('blobs').where({ id: row.id }).update({ bytes, asset_key: null });
      }
    } finally {
      await db.destroy();
    }
    renderer = await startEngine({ shareWith: api, workers: true });
    const piece = await settled(client(renderer.url, api.keys.test), '/v1/postcards', created.body.id, 60_000, true);
    t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
    const pdf = await download(String(piece.url));
    t.is(pdf.status, 200);
  } finally {
    await renderer?.close();
    await api.close();
  }
});
