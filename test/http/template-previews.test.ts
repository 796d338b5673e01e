// POST /v1/template_previews over HTTP on both databases: a template's published version, one of its
// versions by id, or inline HTML drawn as a PNG (or the PDF) by the engine's renderer; a new version
// draws a different image; bounds and unknown templates answered in the spec's error body.
import { databaseSuite } from '../helpers/suite';

const { serial } = databaseSuite();

async function preview(url: string, key: string, json: unknown) {
  const response = await fetch(`${url}/v1/template_previews`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(json),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, type: response.headers.get('content-type') ?? '', bytes };
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

serial('a template version, inline HTML or a PDF, drawn by the renderer', async (t, { api, engine }) => {
  t.timeout(120_000);
  const key = engine.keys.test;
  const template = await api('POST', '/v1/templates', {
    json: { description: 'Card', html: '<div style="background:#00f;height:100vh">{{name}}</div>' },
  });
  t.is(template.status, 200, JSON.stringify(template.body));
  const first = await preview(engine.url, key, {
    template_id: template.body.id,
    product: 'postcards',
    size: '6x9',
    side: 'back',
    zones: true,
    merge_variables: { name: 'Ada' },
  });
  t.is(first.status, 200, first.bytes.toString());
  t.is(first.type, 'image/png');
  t.deepEqual(first.bytes.subarray(0, 4), PNG);

  const version = await api('POST', `/v1/templates/${template.body.id}/versions`, {
    json: { html: '<div style="background:#f00;height:100vh">v2</div>' },
  });
  t.is(version.status, 200, JSON.stringify(version.body));
  const second = await preview(engine.url, key, {
    template_id: template.body.id,
    version_id: version.body.id,
    product: 'postcards',
    size: '6x9',
    side: 'back',
    zones: true,
  });
  t.is(second.status, 200);
  t.notDeepEqual(second.bytes, first.bytes, 'another version draws another image');

  const pdf = await preview(engine.url, key, {
    html: '<p>hi</p>',
    product: 'letters',
    size: 'us_letter',
    side: 'file',
    format: 'pdf',
  });
  t.is(pdf.type, 'application/pdf');
  t.is(pdf.bytes.subarray(0, 5).toString(), '%PDF-');
});

serial('refusals are the spec error body with a 4xx', async (t, { engine }) => {
  const key = engine.keys.test;
  const badSize = await preview(engine.url, key, { html: '<p>x</p>', product: 'postcards', size: '5x7', side: 'back' });
  t.is(badSize.status, 422);
  t.like(JSON.parse(badSize.bytes.toString()), { error: { status_code: 422 } });
  t.is((await preview(engine.url, key, { product: 'postcards' })).status, 422, 'html or template_id');
  t.is((await preview(engine.url, key, { template_id: 'tmpl_0000000000000000' })).status, 404);
  t.is((await preview(engine.url, engine.keys.testPub, { html: '<p>x</p>' })).status, 403);
  t.is((await preview(engine.url, 'test_wrong', { html: '<p>x</p>' })).status, 401);
});

serial("previews count against the key's rate limit, with the spec's 429", async (t, { engine }) => {
  const name = `previews-${Date.now()}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('rate_limit_per_5s', 2, name);
  const bad = { html: '<p>x</p>', format: 'gif' };
  // all three in one 5 s window: start early in a fresh one
  const intoWindow = Date.now() % 5000;
  if (intoWindow > 2000) await new Promise((r) => setTimeout(r, 5000 - intoWindow + 50));
  const answers = [];
  for (let i = 0; i < 3; i++) answers.push(await preview(engine.url, keys.test, bad));
  t.deepEqual(
    answers.map((a) => a.status),
    [422, 422, 429],
    'two admitted (refused for their format), the third over the limit',
  );
  const over = JSON.parse(answers[2].bytes.toString()) as { error: { code: string; status_code: number } };
  t.like(over.error, { code: 'rate_limit_exceeded', status_code: 429 });
});
