// Uploaded PNG and JPEG artwork renders on both databases: a small JPEG read back from SQLite comes as a
// Buffer inside a shared pool, and pdf-lib reads a JPEG through its ArrayBuffer from offset 0.
import sharp from 'sharp';
import type { ExecutionContext } from 'ava';
import { databaseSuite, type SuiteContext } from '../helpers/suite';
import type { TestEngine } from '../helpers/engine';
import { TO } from '../helpers/mail';
import { settled } from './helpers';

const { test } = databaseSuite({ workers: true, settings: { rate_limit_per_5s: 100000 } });

/**
 * A JPEG under 4 KB (below that, Node copies a Buffer into its shared 8 KB pool) that create takes for
 * a 4x6 side: at 300 DPI even a flat colour costs 7 KB of Huffman-coded blocks, so sharp's JPEG is cut
 * after 1.5 KB (its header and the start of its scan) and closed with EOI. A viewer shows the rest grey.
 */
async function smallJpeg(): Promise<Buffer> {
  const whole = await sharp({ create: { width: 1875, height: 1275, channels: 3, background: '#228844' } })
    .jpeg({ quality: 1, optimizeCoding: true })
    .toBuffer();
  return Buffer.concat([whole.subarray(0, 1500), Buffer.from([0xff, 0xd9])]);
}

// The copy lands at offset 0 only when it starts a fresh pool: three pieces make a miss unlikely.
test('a small JPEG postcard front renders', async (t, { engine, api }) => {
  const jpeg = await smallJpeg();
  for (let i = 0; i < 3; i++) await renders(t, engine, api, jpeg);
});

async function renders(t: ExecutionContext, engine: TestEngine, api: SuiteContext['api'], jpeg: Buffer) {
  const form = new FormData();
  for (const [k, v] of Object.entries(TO)) form.append(`to[${k}]`, v);
  form.append('use_type', 'marketing');
  form.append('back', '<p>Back</p>');
  form.append('front', new Blob([jpeg], { type: 'image/jpeg' }), 'front.jpg');
  const reply = await fetch(`${engine.url}/v1/postcards`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    body: form,
  });
  const created = (await reply.json()) as { id: string };
  t.is(reply.status, 200, JSON.stringify(created));
  const piece = await settled(api, '/v1/postcards', created.id, 60_000, true);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
}
