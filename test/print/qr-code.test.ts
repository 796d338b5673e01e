// qr_code, printed: pieces rendered by a real engine, their PDFs rasterized and the codes read back by
// a QR decoder (jsQR), which must give the redirect URL with its merge variables filled, on exactly the
// pages `pages` names; refusals where the spec or the sheet rule it out.
import test from 'ava';
import jsQR from 'jsqr';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { letter, postcard, selfMailer, snapPack } from '../helpers/mail';
import { RasterPdf } from '../../engine/print/thumbnails/rasterize';
import { create, download, settled } from './helpers';

let engine: TestEngine;
let call: ReturnType<typeof client>;

test.before(async () => {
  engine = await startEngine({ workers: true, settings: { service_version: '2024-01-01' } });
  call = client(engine.url, engine.keys.test);
});
test.after.always(() => engine?.close());

const PX_PER_INCH = 150;

/** What the QR code on each page of a rendered piece decodes to (null where none is found). */
async function codesOf(path: string, body: Record<string, unknown>) {
  const created = await create(call, path, body);
  const piece = await settled(call, path, created.id, 60_000, true);
  if (piece.status !== 'rendered') throw new Error(JSON.stringify(piece.failure_reason));
  const pdf = await RasterPdf.open((await download(piece.url!)).bytes);
  const found: (string | null)[] = [];
  try {
    for (let page = 1; page <= pdf.pageCount; page++) {
      const probe = await pdf.rasterize(page, 100);
      const image = await pdf.rasterize(page, Math.round((probe.width / 100) * 8.5 * PX_PER_INCH));
      const code = jsQR(new Uint8ClampedArray(image.data), image.width, image.height);
      found.push(code?.data ?? null);
    }
  } finally {
    pdf.close();
  }
  return { created, found };
}

test('postcard: the code on both sides decodes to the redirect URL with merge variables filled', async (t) => {
  const qr_code = {
    position: 'relative',
    redirect_url: 'https://example.com/offer?who={{name}}&unknown={{nobody}}',
    width: 1.25,
    top: 0.5,
    left: 0.5,
    pages: 'front,back',
  };
  const { created, found } = await codesOf(
    '/v1/postcards',
    postcard({ qr_code, merge_variables: { name: 'Harry Z' } }),
  );
  t.like(created, { qr_code });
  t.deepEqual(found, [
    'https://example.com/offer?who=Harry%20Z&unknown={{nobody}}',
    'https://example.com/offer?who=Harry%20Z&unknown={{nobody}}',
  ]);
});

test('self mailer: default pages put it on the inside only, placed from the bottom right', async (t) => {
  const qr_code = { position: 'relative', redirect_url: 'https://example.com/m', width: 1, bottom: 0.5, right: 0.5 };
  const { found } = await codesOf('/v1/self_mailers', selfMailer({ qr_code }));
  t.deepEqual(found, ['https://example.com/m', null]);
});

test('letter: page numbers and ranges count the customer pages, and a URL that is one variable is the value', async (t) => {
  const file =
    '<html><body><p>One</p><p style="break-before:page">Two</p><p style="break-before:page">Three</p></body></html>';
  const qr_code = { position: 'relative', redirect_url: '{{link}}', width: 1, bottom: 1, right: 1, pages: '2-3' };
  const { found } = await codesOf(
    '/v1/letters',
    letter({ file, qr_code, merge_variables: { link: 'https://example.com/l/42' } }),
  );
  t.deepEqual(found, [null, 'https://example.com/l/42', 'https://example.com/l/42']);
});

const refused = async (path: string, body: Record<string, unknown>) => {
  const reply = await call<{ error: { code: string; message: string; status_code: number } }>('POST', path, {
    json: body,
  });
  return { status: reply.status, ...reply.body.error };
};

test('refused where the spec or the sheet rules it out, each with its reason', async (t) => {
  const qr = (extra: Record<string, unknown>) => ({
    position: 'relative',
    redirect_url: 'https://example.com',
    width: 1,
    top: 0.5,
    left: 0.5,
    ...extra,
  });
  const cases: [string, string, Record<string, unknown>, RegExp][] = [
    ['snap pack', '/v1/snap_packs', snapPack({ qr_code: qr({}) }), /qr_code is not allowed/],
    ['us_legal letter', '/v1/letters', letter({ size: 'us_legal', qr_code: qr({}) }), /qr_code/],
    ['under an inch', '/v1/postcards', postcard({ qr_code: qr({ width: 0.5 }) }), /qr_code\.width/],
    ['top and bottom', '/v1/postcards', postcard({ qr_code: qr({ bottom: 1 }) }), /exactly one of top and bottom/],
    [
      'no left or right',
      '/v1/postcards',
      postcard({ qr_code: qr({ left: undefined }) }),
      /exactly one of left and right/,
    ],
    [
      'a side the kind lacks',
      '/v1/postcards',
      postcard({ qr_code: qr({ pages: 'inside' }) }),
      /"inside" is not a side/,
    ],
    ['a page range backwards', '/v1/letters', letter({ qr_code: qr({ pages: '3-1' }) }), /"3-1" is not a page number/],
    ['not a URL', '/v1/postcards', postcard({ qr_code: qr({ redirect_url: 'example' }) }), /redirect_url/],
    [
      'off the sheet',
      '/v1/postcards',
      postcard({ qr_code: qr({ left: 5.5 }) }),
      /does not fit on the front \(6\.25x4\.25 in\)/,
    ],
    [
      'over the address area',
      '/v1/postcards',
      postcard({ qr_code: qr({ top: undefined, left: undefined, bottom: 0.5, right: 0.5, pages: 'back' }) }),
      /overlaps the area the address and postage are printed in on the back/,
    ],
    [
      "over a letter's address window",
      '/v1/letters',
      letter({ qr_code: qr({ top: 2, left: 1 }) }),
      /overlaps the area the address and postage are printed in on page 1/,
    ],
  ];
  for (const [what, path, body, message] of cases) {
    const answer = await refused(path, body);
    t.is(answer.status, 422, `${what}: ${JSON.stringify(answer)}`);
    t.is(answer.status_code, 422, what);
    t.regex(answer.message, message, what);
  }
});
