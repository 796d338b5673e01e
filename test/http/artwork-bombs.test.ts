// Decompression bombs sent as artwork are refused at create with file_size_exceeds_limit, before any
// parser or rasterizer holds them, and the engine goes on answering: an object-stream bomb, a
// page-content bomb, an image standing for a huge picture inside a PDF, and a small PNG of 19,000 x
// 12,920 px (far past 600 DPI on a 4x6 side).
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';
import { TO } from '../helpers/mail';
import { bombPdf } from '../domain/artwork/pdf-fixtures';
import { hugePng } from '../fuzz/hostile-files';

let engine: TestEngine;
test.before(async () => {
  engine = await startEngine({ settings: { rate_limit_per_5s: 100000 } });
});
test.after.always(() => engine?.close());

async function postcardWithFront(front: Buffer, name: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(TO)) form.append(`to[${k}]`, v);
  form.append('use_type', 'marketing');
  form.append('back', '<p>Back</p>');
  form.append('front', new Blob([front]), name);
  const response = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
}

const bombs: [string, () => Promise<Buffer>, string, RegExp][] = [
  ['object-stream bomb', () => bombPdf('objects', 48), 'bomb.pdf', /compressed objects/],
  ['page-content bomb', () => bombPdf('drawing', 96), 'bomb.pdf', /page drawing instructions/],
  ['image standing for 30000x30000 px', () => bombPdf('image'), 'bomb.pdf', /content in all/],
  [
    'PNG of 19000x12920 px',
    async () => hugePng(19000, 12920),
    'bomb.png',
    /19000x12920 px, \d+ DPI .* at most 600 DPI/,
  ],
];

for (const [what, make, name, message] of bombs) {
  test(`${what}: refused with file_size_exceeds_limit, and the engine still answers`, async (t) => {
    const bytes = await make();
    t.true(bytes.length < 2 * 1_048_576, `a small file: ${bytes.length} bytes`);
    const reply = await postcardWithFront(bytes, name);
    t.is(reply.status, 422, JSON.stringify(reply.body));
    t.is(reply.body.error.code, 'file_size_exceeds_limit');
    t.regex(reply.body.error.message, message);
    t.is((await fetch(`${engine.url}/health`)).status, 200);
  });
}
