// A creative's artwork sent as multipart files: checked as a direct create checks an upload (sniffing,
// size, decode budget), stored once under the creative, and named (not copied) by every piece a run
// makes from it; the pieces render from it, and neither the creative's delete nor a piece's cancel
// takes the file from the others. A refused file is the spec's 422 and leaves nothing. Both databases.
import fs from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import knex from 'knex';
import { PDFDocument } from 'pdf-lib';
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import type { TestEngine } from '../../helpers/engine';
import { ABROAD, FROM, TO, POSTCARD_4X6_IN, minimalPdf } from '../../helpers/mail';
import { bombPdf, pdfOf } from '../artwork/pdf-fixtures';
import { download, settled as rendered } from '../../print/helpers';

const MAX_FILE_BYTES = 2 * 1_048_576;
const { test, serial } = databaseSuite({ workers: true, env: { MAX_FILE_BYTES: String(MAX_FILE_BYTES) } });

type Api = SuiteContext['api'];

function database(engine: TestEngine) {
  return knex(
    engine.db === 'sqlite'
      ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
      : { client: 'pg', connection: engine.databaseUrl },
  );
}

async function campaign(t: ExecutionContext, api: Api, segment: string) {
  const reply = await api('POST', '/v1/campaigns', {
    json: { name: 'Files', schedule_type: 'immediate', use_type: 'marketing', audience: { metadata: { segment } } },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.id as string;
}

/** POST /v1/creatives as multipart: `fields` as form parts, `files` as file parts. */
async function creative(engine: TestEngine, fields: Record<string, string>, files: Record<string, Buffer>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [side, bytes] of Object.entries(files)) form.append(side, new Blob([bytes]), `${side}.pdf`);
  const response = await fetch(`${engine.url}/v1/creatives`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

async function runSettled(api: Api, campaignId: string, runId: string) {
  for (let i = 0; i < 600; i++) {
    const reply = await api('GET', `/v1/campaigns/${campaignId}/runs/${runId}`);
    if (reply.body.status !== 'running') return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} still running`);
}

const stored = (engine: TestEngine, key: string) => fs.existsSync(path.join(engine.assets, key));

test('a postcard creative with PDF sides sent as files: a run to 3 makes 3 pieces that render from its one stored file', async (t, {
  engine,
  api,
}) => {
  const segment = `files-${Date.now()}-${Math.random()}`;
  for (let i = 0; i < 3; i++) {
    const reply = await api('POST', '/v1/addresses', {
      json: { ...TO, name: `Recipient ${i}`, metadata: { segment } },
    });
    t.is(reply.status, 200, JSON.stringify(reply.body));
  }
  const cmp = await campaign(t, api, segment);
  const made = await creative(
    engine,
    { resource_type: 'postcard', campaign_id: cmp, 'details[size]': '4x6' },
    { front: minimalPdf('Creative front'), back: minimalPdf('Creative back') },
  );
  t.is(made.status, 200, JSON.stringify(made.body));
  // as a piece shows an uploaded side: nothing of the file
  t.like(made.body, { object: 'creative', front: null, back: null, details: { size: '4x6' } });
  const fileKeys = ['front', 'back'].map((side) => `uploads/${made.body.id}_${side}`);
  t.true(
    fileKeys.every((key) => stored(engine, key)),
    'stored once, under the creative',
  );
  t.like((await api('GET', `/v1/creatives/${made.body.id}`)).body, { front: null, back: null });

  const send = await api('POST', `/v1/campaigns/${cmp}/send`);
  t.is(send.status, 200, JSON.stringify(send.body));
  t.like(await runSettled(api, cmp, send.body.id), { status: 'completed', pieces_created: 3, skipped_count: 0 });
  // deleting the creative leaves its pieces (some may still be rendering) their file
  t.is((await api('DELETE', `/v1/creatives/${made.body.id}`)).status, 200);

  const list = await api('GET', `/v1/postcards?campaign_id=${cmp}&limit=10`);
  const ids = (list.body.data as { id: string }[]).map((p) => p.id);
  t.is(ids.length, 3);
  const db = database(engine);
  try {
    const blobIds = new Set<string>();
    for (const id of ids) {
      const inputs = JSON.parse((await db('piece_inputs').where({ piece_id: id }).first()).inputs).artwork;
      t.like(inputs.front, { kind: 'file', content_type: 'application/pdf', filename: 'front.pdf' });
      blobIds.add(inputs.front.blob_id).add(inputs.back.blob_id);
      t.false(stored(engine, `uploads/${id}_front`), 'no copy per piece');
    }
    t.is(blobIds.size, 2, 'every piece names the same two files');
  } finally {
    await db.destroy();
  }
  const [sheetWidth, sheetHeight] = POSTCARD_4X6_IN.map((inches) => inches * 72);
  for (const id of ids) {
    const piece = await rendered(api, '/v1/postcards', id, 60_000, true);
    t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
    const pdf = await download(String(piece.url));
    t.is(pdf.status, 200);
    const document = await PDFDocument.load(pdf.bytes);
    t.is(document.getPageCount(), 2, 'front and back');
    for (const page of document.getPages()) {
      const { width, height } = page.getSize();
      t.true(Math.abs(width - sheetWidth) < 1 && Math.abs(height - sheetHeight) < 1, `${width}x${height} pt`);
    }
  }
  // a cancelled piece removes its own files, not the ones its creative's other pieces name
  t.is((await api('DELETE', `/v1/postcards/${ids[0]}`)).status, 200);
  t.true(fileKeys.every((key) => stored(engine, key)));
});

const creativeFiles = (engine: TestEngine) => {
  const uploads = path.join(engine.assets, 'uploads');
  return fs.existsSync(uploads) ? fs.readdirSync(uploads).filter((name) => name.startsWith('crv_')) : [];
};

// serial: it counts the creatives' files, which the other test adds to
serial('a bad creative file is a 422 in the spec body and makes nothing', async (t, { engine, api }) => {
  const before = creativeFiles(engine);
  const cmp = await campaign(t, api, `none-${Math.random()}`);
  const fields = { resource_type: 'postcard', campaign_id: cmp, 'details[size]': '4x6' };
  const refusals: [string, Record<string, Buffer>, string][] = [
    [
      'not a PDF or image',
      { front: minimalPdf('ok'), back: Buffer.from('plain words, not a file we take') },
      'invalid_file',
    ],
    [
      'over the size limit',
      { front: Buffer.alloc(MAX_FILE_BYTES + 1, 0x25), back: minimalPdf('ok') },
      'file_size_exceeds_limit',
    ],
    [
      'past the decode budget',
      { front: minimalPdf('ok'), back: await bombPdf('objects', 48) },
      'file_size_exceeds_limit',
    ],
    ['the wrong page size', { front: minimalPdf('ok', 8.5, 11), back: minimalPdf('ok') }, 'invalid_file_dimensions'],
    ['an HTML file', { front: Buffer.from('<html><body>Hi</body></html>'), back: minimalPdf('ok') }, 'invalid_file'],
  ];
  for (const [what, files, code] of refusals) {
    const reply = await creative(engine, fields, files);
    t.is(reply.status, 422, `${what}: ${JSON.stringify(reply.body)}`);
    t.is(reply.body.error?.code, code, what);
    t.is(reply.body.error?.status_code, 422, what);
    t.is(typeof reply.body.error?.message, 'string', what);
  }
  t.deepEqual((await api('GET', `/v1/creatives?campaign_id=${cmp}`)).body.data, [], 'no creative');
  t.deepEqual(creativeFiles(engine), before, 'no creative file kept');
});

test('a letter creative takes its file as a part and its details as form strings, kept typed for its pieces', async (t, {
  engine,
  api,
}) => {
  const segment = `letter-${Date.now()}-${Math.random()}`;
  const address = await api('POST', '/v1/addresses', { json: { ...TO, metadata: { segment } } });
  t.is(address.status, 200, JSON.stringify(address.body));
  const cmp = await campaign(t, api, segment);
  const from = Object.fromEntries(Object.entries(FROM).map(([k, v]) => [`from[${k}]`, v]));
  const made = await creative(
    engine,
    { resource_type: 'letter', campaign_id: cmp, ...from, 'details[color]': 'true', 'details[double_sided]': 'false' },
    { file: minimalPdf('Letter', 8.5, 11) },
  );
  t.is(made.status, 200, JSON.stringify(made.body));
  t.like(made.body, { file: null, details: { color: true, double_sided: false } });
  const send = await api('POST', `/v1/campaigns/${cmp}/send`);
  t.like(await runSettled(api, cmp, send.body.id), { status: 'completed', pieces_created: 1 });
  const [letter] = (await api('GET', `/v1/letters?campaign_id=${cmp}`)).body.data as { id: string }[];
  const piece = await rendered(api, '/v1/letters', letter.id, 60_000, true);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  t.like(piece, { color: true, double_sided: false });
});

test('a letter file stored for the US is checked again for a recipient abroad, who takes fewer pages', async (t, {
  engine,
  api,
}) => {
  const segment = `abroad-${Date.now()}-${Math.random()}`;
  for (const to of [TO, ABROAD]) {
    const reply = await api('POST', '/v1/addresses', { json: { ...to, metadata: { segment } } });
    t.is(reply.status, 200, JSON.stringify(reply.body));
  }
  const cmp = await campaign(t, api, segment);
  const from = Object.fromEntries(Object.entries(FROM).map(([k, v]) => [`from[${k}]`, v]));
  // 13 pages: within a US letter's 120, past the 12 a letter abroad takes
  const file = await pdfOf(Array.from({ length: 13 }, (): [number, number] => [8.5, 11]));
  const made = await creative(
    engine,
    { resource_type: 'letter', campaign_id: cmp, ...from, 'details[color]': 'false' },
    { file },
  );
  t.is(made.status, 200, JSON.stringify(made.body));
  const send = await api('POST', `/v1/campaigns/${cmp}/send`);
  const done = await runSettled(api, cmp, send.body.id);
  t.like(done, { status: 'completed', pieces_created: 1, skipped_count: 1 });
  t.regex(done.skipped[0].reason, /13 pages/);
});
