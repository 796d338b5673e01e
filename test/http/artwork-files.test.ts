// Artwork files are checked at create, over real HTTP against a real engine, with a real file breaking
// each rule (made here with pdf-lib and sharp); remote artwork URLs are fetched at create from a local
// server (the engine allows 127.0.0.0/8 for it) and stored like uploads, on both databases.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import test from 'ava';
import knex from 'knex';
import sharp from 'sharp';
import { startEngine, type TestEngine } from '../helpers/engine';
import { databaseSuite } from '../helpers/suite';
import { ABROAD, FROM, TO } from '../helpers/mail';
import { encryptedPdf, pdfOf, pdfWithFont } from '../domain/artwork/pdf-fixtures';

const ENV = { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', REMOTE_FILE_TIMEOUT_MS: '1500' };
const SETTINGS = { rate_limit_per_5s: 100000 };
const CARD: [number, number] = [6.25, 4.25];
const LETTER: [number, number] = [8.5, 11];

const image = (width: number, height: number, format: 'png' | 'jpeg' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: '#228844' } })
    .toFormat(format)
    .toBuffer();
/** Noise does not compress: a 4x6 side at 300 DPI of it is a PNG over 5 MB. */
const noisePng = () =>
  sharp(randomBytes(1875 * 1275 * 3), { raw: { width: 1875, height: 1275, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();

// ---- a file server the engine fetches remote artwork from
const served = new Map<string, { bytes: Buffer; type: string }>();
let files: http.Server;
let filesUrl: string;

// ---- engines: `checks` allows the file server's network; `guarded` is configured as shipped
let checks: TestEngine;
let guarded: TestEngine;

test.before(async () => {
  files = http.createServer((req, res) => {
    if (req.url === '/slow.pdf') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      return void res.write('%PDF-1.4\n'); // and then nothing
    }
    if (req.url === '/huge.pdf') {
      const size = 20 * 1_048_576 + 1;
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': size });
      return void res.end(Buffer.alloc(size));
    }
    const file = served.get(String(req.url));
    if (!file) return void res.writeHead(404).end('not here');
    res.writeHead(200, { 'content-type': file.type });
    res.end(file.bytes);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  served.set('/front.pdf', { bytes: await pdfOf([CARD]), type: 'application/pdf' });
  served.set('/back.png', { bytes: await image(1875, 1275), type: 'image/png' });
  served.set('/two-pages.pdf', { bytes: await pdfOf([CARD, CARD]), type: 'application/pdf' });
  served.set('/notes.txt', { bytes: Buffer.from('just some words'), type: 'application/pdf' });
  served.set('/page.html', { bytes: Buffer.from('<html><body>Hi {{name}}</body></html>'), type: 'text/html' });
  [checks, guarded] = await Promise.all([
    startEngine({ env: ENV, settings: SETTINGS }),
    startEngine({ settings: SETTINGS }),
  ]);
});

test.after.always(async () => {
  files?.closeAllConnections();
  await new Promise((resolve) => files?.close(resolve));
  await checks?.close();
  await guarded?.close();
});

const addressFields = (prefix: string, address: Record<string, string>) =>
  Object.fromEntries(Object.entries(address).map(([k, v]) => [`${prefix}[${k}]`, v]));

async function multipart(
  engine: TestEngine,
  path: string,
  fields: Record<string, string>,
  uploads: Record<string, [Buffer, string]>,
  headers: Record<string, string> = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [k, [bytes, name]] of Object.entries(uploads)) form.append(k, new Blob([bytes]), name);
  const response = await fetch(`${engine.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`, ...headers },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as any };
}

const postcardWith = (front: Buffer, fields: Record<string, string> = {}) =>
  multipart(
    checks,
    '/v1/postcards',
    { ...addressFields('to', TO), use_type: 'marketing', back: '<p>Back</p>', ...fields },
    { front: [front, 'front.bin'] },
  );

const letterWith = (file: Buffer, fields: Record<string, string> = {}, to = TO) =>
  multipart(
    checks,
    '/v1/letters',
    { ...addressFields('to', to), ...addressFields('from', FROM), use_type: 'operational', color: 'false', ...fields },
    { file: [file, 'letter.bin'] },
    { 'Service-Version': '2024-01-01' }, // letters take `size` since then
  );

async function postJson(engine: TestEngine, path: string, json: unknown) {
  const response = await fetch(`${engine.url}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as any };
}

const remotePostcard = (engine: TestEngine, front: string, back = '<p>Back</p>') =>
  postJson(engine, '/v1/postcards', { to: TO, use_type: 'marketing', front, back, merge_variables: { name: 'H' } });

type Reply = { status: number; body: any };
function refused(t: { is(a: unknown, b: unknown, m?: string): void; regex(s: string, r: RegExp): void }) {
  return (reply: Reply, code: string, message?: RegExp) => {
    t.is(reply.status, 422, JSON.stringify(reply.body));
    t.is(reply.body.error?.code, code, JSON.stringify(reply.body));
    if (message) t.regex(reply.body.error.message, message);
  };
}

test('postcard sides that follow the rules are taken: bleed or trim size, turned pages, standard fonts, 300 DPI images', async (t) => {
  const good: [string, Buffer, Record<string, string>?][] = [
    ['Helvetica PDF with bleed', await pdfOf([CARD])],
    ['PDF at trim size', await pdfOf([[6, 4]])],
    ['portrait page turned by /Rotate 90', await pdfOf([[4.25, 6.25]], 90)],
    ['a 6x9 side', await pdfOf([[9.25, 6.25]]), { size: '6x9' }],
    ['unembedded subset of a standard font', await pdfWithFont({ baseFont: 'ABCDEF+Arial,Bold' })],
    ['embedded TrueType font', await pdfWithFont({ baseFont: 'Garamond', program: 'FontFile2' })],
    ['PNG at 300 DPI', await image(1875, 1275)],
    ['JPEG at 400 DPI', await image(2500, 1700, 'jpeg')],
  ];
  for (const [what, bytes, fields] of good) {
    const reply = await postcardWith(bytes, fields);
    t.is(reply.status, 200, `${what}: ${JSON.stringify(reply.body)}`);
  }
});

test("self mailers take the vendor's sheets: a 12x9 bifold's 9.25x12.25 in PDFs (a hair off too), not 18.25 in wide", async (t) => {
  const fields = { ...addressFields('to', TO), ...addressFields('from', FROM), use_type: 'marketing' };
  const mailer = async (size: string, inside: [number, number], outside: [number, number]) =>
    multipart(
      checks,
      '/v1/self_mailers',
      { ...fields, size },
      { inside: [await pdfOf([inside]), 'inside.pdf'], outside: [await pdfOf([outside]), 'outside.pdf'] },
    );
  const twelve = await mailer('12x9_bifold', [9.25, 12.25], [9.25, 12.248916]);
  t.is(twelve.status, 200, JSON.stringify(twelve.body));
  t.is(twelve.body.size, '12x9_bifold');
  const eleven = await mailer('11x9_bifold', [9.25, 11.25], [9, 11]);
  t.is(eleven.status, 200, JSON.stringify(eleven.body));
  const wide = await mailer('12x9_bifold', [18.25, 12.25], [18.25, 12.25]);
  t.is(wide.status, 422);
  t.is(wide.body.error.code, 'invalid_file_dimensions');
  t.regex(wide.body.error.message, /9\.25x12\.25 in/);
});

test('postcard sides breaking a rule are refused with its code, naming the field', async (t) => {
  const is = refused(t);
  is(await postcardWith(await encryptedPdf()), 'pdf_encrypted', /^front: the PDF is encrypted/);
  is(await postcardWith(await pdfOf([])), 'file_pages_below_min', /^front: the PDF has 0 pages/);
  is(
    await postcardWith(await pdfOf([CARD, CARD])),
    'file_pages_exceed_max',
    /^front: the PDF has 2 pages; a 4x6 postcard side takes 1$/,
  );
  is(
    await postcardWith(await pdfOf([[5, 7]])),
    'invalid_file_dimensions',
    /^front: the PDF's pages are 5x7 in; a 4x6 postcard side is 6\.25x4\.25 in \(trim plus 1\/8 in bleed; 6x4 in at trim size/,
  );
  is(await postcardWith(await pdfOf([[4.25, 6.25]])), 'invalid_file_dimensions', /4\.25x6\.25 in/);
  is(
    await postcardWith(await pdfOf([CARD]), { size: '6x11' }),
    'invalid_file_dimensions',
    /6x11 postcard side is 11\.25x6\.25/,
  );
  is(
    await postcardWith(await pdfWithFont({ baseFont: 'ABCDEF+Garamond' })),
    'unembedded_fonts',
    /^front: the PDF uses fonts that are not embedded: Garamond;/,
  );
  is(await postcardWith(await pdfWithFont({ baseFont: 'NotoSans', subtype: 'Type0' })), 'unembedded_fonts', /NotoSans/);
  is(await postcardWith(Buffer.from('plain words, no file format')), 'invalid_file');
  is(
    await postcardWith(Buffer.from('%PDF-1.7\nnot really a PDF\n')),
    'invalid_file',
    /^front: the PDF could not be read/,
  );
  is(
    await postcardWith(await image(625, 425)),
    'invalid_image_dpi',
    /^front: the image is 625x425 px, 100 DPI .*1875x1275 px/,
  );
  is(await postcardWith(await image(1875, 1875)), 'invalid_file_dimensions', /^front: the image is 1875x1875 px;/);
  is(await postcardWith(await image(1800, 1200)), 'invalid_file_dimensions', /proportions/);
  const noise = await noisePng();
  t.true(noise.length > 5 * 1_048_576);
  is(await postcardWith(noise), 'file_size_exceeds_limit', /^front is an image of more than 5 MB/);
  // 200,000 tags in 2.8 MB: parsing them all once exhausted the engine's heap; refused before parsing
  const tags = Buffer.from(`<html><body>${'<b>{{a}}</b>'.repeat(200_000)}</body></html>`);
  is(await postcardWith(tags), 'invalid_template_html', /^front uses more than 1,000 \{\{…\}\} merge tags/);
  t.is(
    (await postJson(checks, '/v1/postcards', { to: TO, use_type: 'marketing', front: '<p>A</p>', back: '<p>B</p>' }))
      .status,
    200,
    'the engine goes on',
  );
});

test('letters: 8.5x11 pages (legal 8.5x14), one size throughout, within the page limit of destination and sides', async (t) => {
  const is = refused(t);
  const ok = (reply: Reply, what: string) => t.is(reply.status, 200, `${what}: ${JSON.stringify(reply.body)}`);
  ok(await letterWith(await pdfOf([LETTER, LETTER])), 'two letter pages');
  ok(await letterWith(await pdfOf([[8.5, 14]]), { size: 'us_legal' }), 'a legal page');
  is(
    await letterWith(await pdfOf([LETTER, [8.5, 14]])),
    'inconsistent_page_dimensions',
    /page 1 is 8\.5x11 in, page 2 is 8\.5x14 in/,
  );
  is(
    await letterWith(await pdfOf([LETTER]), { size: 'us_legal' }),
    'invalid_file_dimensions',
    /a us_legal letter page is 8\.5x14 in$/,
  );
  is(await letterWith(await pdfOf([CARD])), 'invalid_file_dimensions', /^file: the PDF's pages are 6\.25x4\.25 in/);
  is(
    await letterWith(await pdfOf([[8.75, 11.25]])),
    'invalid_file_dimensions',
    /^file: the PDF's pages are 8\.75x11\.25 in; a us_letter letter page is 8\.5x11 in$/,
  );
  is(await letterWith(await pdfOf([])), 'file_pages_below_min');
  const seven = await pdfOf(Array.from({ length: 7 }, () => LETTER));
  is(
    await letterWith(seven, { double_sided: 'false' }, ABROAD),
    'file_pages_exceed_max',
    /^file: the PDF has 7 pages; a letter to an address outside the US printed single-sided takes at most 6$/,
  );
  ok(await letterWith(seven, { double_sided: 'true' }, ABROAD), 'double-sided abroad takes 12');
  ok(await letterWith(seven, { double_sided: 'false' }), 'in the US single-sided takes 60');
});

test('remote artwork: refusals of the guard, the network and the rules have their codes', async (t) => {
  const is = refused(t);
  is(await remotePostcard(guarded, `${filesUrl}/front.pdf`), 'invalid_file_url', /^front: .*private network/);
  is(await remotePostcard(checks, `${filesUrl}/missing.pdf`), 'invalid_file_url', /HTTP 404/);
  is(await remotePostcard(checks, 'http://127.0.0.1:1/a.pdf'), 'invalid_file_url', /could not be fetched/);
  is(await remotePostcard(checks, `${filesUrl}/slow.pdf`), 'invalid_file_download_time', /within 1\.5 seconds/);
  is(await remotePostcard(checks, `${filesUrl}/huge.pdf`), 'file_size_exceeds_limit', /larger than 20 MB/);
  is(await remotePostcard(checks, `${filesUrl}/two-pages.pdf`), 'file_pages_exceed_max', /^front: the PDF has 2 pages/);
  is(await remotePostcard(checks, `${filesUrl}/notes.txt`), 'invalid_file', /^front must be a PDF, PNG, JPEG or HTML/);
});

// ---- storage: a fetched file is a blob like an upload, on both databases

const { test: stored } = databaseSuite({ env: ENV, settings: SETTINGS });

function database(engine: TestEngine) {
  return knex(
    engine.db === 'sqlite'
      ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
      : { client: 'pg', connection: engine.databaseUrl },
  );
}

stored('remote PDF, PNG and HTML are fetched at create and stored as files with the piece', async (t, { engine }) => {
  const reply = await remotePostcard(engine, `${filesUrl}/front.pdf`, `${filesUrl}/back.png`);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  const html = await remotePostcard(engine, `${filesUrl}/page.html`);
  t.is(html.status, 200, JSON.stringify(html.body));
  const db = database(engine);
  try {
    const inputs = async (id: string) =>
      JSON.parse((await db('piece_inputs').where({ piece_id: id }).first()).inputs).artwork;
    const artwork = await inputs(reply.body.id);
    t.like(artwork.front, { kind: 'file', content_type: 'application/pdf', filename: 'front.pdf' });
    t.like(artwork.back, { kind: 'file', content_type: 'image/png', filename: 'back.png' });
    for (const [field, path] of [
      ['front', '/front.pdf'],
      ['back', '/back.png'],
    ]) {
      const blob = await db('blobs').where({ id: artwork[field].blob_id }).first();
      t.is(blob.sha256, createHash('sha256').update(served.get(path)!.bytes).digest('hex'), field);
    }
    t.like((await inputs(html.body.id)).front, { kind: 'file', content_type: 'text/html', filename: 'page.html' });
  } finally {
    await db.destroy();
  }
});
