// Every product and size rendered by a real engine (job runner, Chromium from npm ci, overlay,
// thumbnails, signed links), the PDF fetched through its link and read back: page count and sizes in
// points, merged text, the recipient inside the address zone and the IMb there decoding to its digits.
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { TO, ABROAD, postcard, letter, selfMailer, check, verifiedBankAccount } from '../helpers/mail';
import { readPdf, textIn, fillsIn, zoneBox, type PdfPageRead } from '../helpers/pdf-read';
import { barsFromBoxes, decodeImb } from '../helpers/imb-decode';
import { geometryOf, letterAddressZone, type Zone } from '../../engine/catalog/products';
import { create, download, settled, PNG_SIGNATURE, type Piece } from './helpers';

let engine: TestEngine;
let call: ReturnType<typeof client>;

test.before(async () => {
  // letters take `size` from Service-Version 2024-01-01 on
  engine = await startEngine({ workers: true, settings: { service_version: '2024-01-01' } });
  call = client(engine.url, engine.keys.test);
});
test.after.always(() => engine?.close());

const points = (inches: number) => Math.round(inches * 72 * 100) / 100;

function imbIn(page: PdfPageRead, zone: Zone) {
  const bars = fillsIn(page, zoneBox(zone), '#000000').filter((s) => s.rect && s.width < 2 && s.height < 11);
  return decodeImb(barsFromBoxes(bars));
}

async function renderedPdf(t: import('ava').ExecutionContext, path: string, body: unknown) {
  const created = await create(call, path, body);
  t.is(created.status, 'processed');
  t.true(new URL(created.url!).pathname.endsWith(`/${created.id}.pdf`), 'the link of the PDF to come');
  const piece = await settled(call, path, created.id);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  const file = await download(piece.url!);
  t.is(file.status, 200);
  t.is(file.type, 'application/pdf');
  const pdf = await readPdf(file.bytes);
  t.is(piece.thumbnails.length, pdf.pageCount, 'one thumbnail object per page');
  return { piece, pdf };
}

async function assertThumbnails(t: import('ava').ExecutionContext, piece: Piece) {
  const first = piece.thumbnails[0];
  t.deepEqual(Object.keys(first).sort(), ['large', 'medium', 'small']);
  const widths: number[] = [];
  for (const size of ['small', 'medium', 'large']) {
    const png = await download(first[size]);
    t.is(png.status, 200);
    t.true(png.bytes.subarray(0, 8).equals(PNG_SIGNATURE), `${size} is a PNG`);
    widths.push(png.bytes.readUInt32BE(16));
  }
  t.true(widths[0] < widths[1] && widths[1] < widths[2], `small < medium < large: ${widths.join(', ')}`);
}

for (const size of ['4x6', '6x9', '6x11']) {
  test(`postcard ${size}: two pages of the size with bleed, merged, addressed, barcoded`, async (t) => {
    const { piece, pdf } = await renderedPdf(t, '/v1/postcards', postcard({ size }));
    const [front, back] = geometryOf('postcards', size).sides;
    t.is(pdf.pageCount, 2);
    for (const page of pdf.pages) t.deepEqual([page.width, page.height], [points(front.width), points(front.height)]);
    t.true(
      pdf.pages[0].text.some((x) => x.str.includes('Hello Harry')),
      'merge variable filled on the front',
    );
    const addressed = textIn(pdf.pages[1], zoneBox(back.addressZone!)).join(' ');
    t.regex(addressed, /HARRY ZHANG/i);
    t.regex(addressed, /210 KING ST/i);
    const imb = imbIn(pdf.pages[1], back.addressZone!);
    t.regex(imb.tracking, /^00300999999\d{9}$/);
    t.is(imb.routing.slice(0, 5), TO.address_zip);
    await assertThumbnails(t, piece);
  });
}

for (const size of ['6x18_bifold', '11x9_bifold', '12x9_bifold', '17.75x9_trifold']) {
  test(`self mailer ${size}: inside and outside at the flat size with bleed, outside addressed`, async (t) => {
    const { pdf } = await renderedPdf(t, '/v1/self_mailers', selfMailer({ size }));
    const [inside, outside] = geometryOf('self_mailers', size).sides;
    t.is(pdf.pageCount, 2);
    t.deepEqual([pdf.pages[0].width, pdf.pages[0].height], [points(inside.width), points(inside.height)]);
    t.regex(textIn(pdf.pages[1], zoneBox(outside.addressZone!)).join(' '), /HARRY ZHANG/i);
    t.is(imbIn(pdf.pages[1], outside.addressZone!).routing.slice(0, 5), TO.address_zip);
  });
}

test('snap pack: an 8.5x11 inside and a 6x18 outside, both with bleed', async (t) => {
  const { pdf } = await renderedPdf(t, '/v1/snap_packs', selfMailer());
  t.deepEqual(
    pdf.pages.map((p) => [p.width, p.height]),
    [
      [points(8.75), points(11.25)],
      [points(18.25), points(6.25)],
    ],
  );
});

for (const size of ['us_letter', 'us_legal']) {
  test(`letter ${size}: HTML flows onto pages of the size, address block in the window`, async (t) => {
    // about 9,000 characters (inline HTML stays under 10,000): several pages at 14pt
    const words = Array.from({ length: 1500 }, () => 'lorem').join(' ');
    const file = `<html><body style="font-size:14pt"><p>Dear {{name}},</p><p>${words}</p></body></html>`;
    const { pdf } = await renderedPdf(t, '/v1/letters', letter({ size, file }));
    const height = size === 'us_legal' ? 14 : 11;
    t.true(pdf.pageCount >= 2, `the letter flowed onto ${pdf.pageCount} pages`);
    for (const page of pdf.pages) t.deepEqual([page.width, page.height], [612, points(height)]);
    t.true(pdf.pages[0].text.some((x) => x.str.includes('Dear Harry')));
    const zone = letterAddressZone('top_first_page', height);
    t.regex(textIn(pdf.pages[0], zoneBox(zone)).join(' '), /HARRY ZHANG/i);
    t.is(imbIn(pdf.pages[0], zone).routing.slice(0, 5), TO.address_zip);
  });
}

test('letter: explicit page breaks give their pages; insert_blank_page adds an address page in front', async (t) => {
  const pages = ['One', 'Two', 'Three', 'Four'].map((w) => `<div style="break-after:page">${w}</div>`).join('');
  const plain = await renderedPdf(t, '/v1/letters', letter({ file: `<html><body>${pages}</body></html>` }));
  t.is(plain.pdf.pageCount, 4);
  const blank = await renderedPdf(
    t,
    '/v1/letters',
    letter({ file: `<html><body>${pages}</body></html>`, address_placement: 'insert_blank_page' }),
  );
  // double sided (the default): the address page is a whole sheet, so the artwork keeps its sides
  t.is(blank.pdf.pageCount, 6);
  t.false(
    blank.pdf.pages[0].text.some((x) => x.str.includes('One')),
    'the first page carries the address only',
  );
  t.deepEqual(blank.pdf.pages[1].text, [], 'its back is blank');
  t.true(blank.pdf.pages[2].text.some((x) => x.str.includes('One')));
  const single = await renderedPdf(
    t,
    '/v1/letters',
    letter({ file: `<html><body>${pages}</body></html>`, address_placement: 'insert_blank_page', double_sided: false }),
  );
  t.is(single.pdf.pageCount, 5, 'single sided: one address page in front');
});

test('letter abroad, single sided: HTML past 6 pages is trimmed to the limit', async (t) => {
  const pages = Array.from({ length: 9 }, (_, i) => `<div style="break-after:page">Page ${i + 1}</div>`).join('');
  const { pdf } = await renderedPdf(
    t,
    '/v1/letters',
    letter({
      to: ABROAD,
      double_sided: false,
      file: `<html><body>${pages}</body></html>`,
    }),
  );
  t.is(pdf.pageCount, 6);
});

test('certified letter: a cover sheet in front with its tracking number', async (t) => {
  const { piece, pdf } = await renderedPdf(t, '/v1/letters', letter({ extra_service: 'certified' }));
  t.is(pdf.pageCount, 3, 'the cover sheet and its blank back, then the one page');
  const cover = pdf.pages[0].text.map((x) => x.str).join(' ');
  t.regex(cover, /CERTIFIED/i);
  t.true(cover.replace(/\s/g, '').includes(String(piece.tracking_number)), 'tracking number printed');
});

test('check: payee, amount in words and the MICR line on the check face', async (t) => {
  const bank = await verifiedBankAccount(call);
  const { piece, pdf } = await renderedPdf(t, '/v1/checks', check(bank, { amount: 1234.56, memo: 'rent' }));
  t.deepEqual([pdf.pages[0].width, pdf.pages[0].height], [612, 792]);
  const text = pdf.pages[0].text.map((x) => x.str).join(' ');
  t.regex(text, /one thousand two hundred thirty-four and 56\/100/i);
  t.regex(text, /1,234\.56/);
  t.regex(text, /rent/);
  t.true(text.includes(`C${String(piece.check_number)}C`), 'MICR on-us field with the check number');
  // a test check: VOID, and its MICR transit and on-us fields masked (E-13B dashes, no bank digits)
  t.regex(text, /VOID/);
  t.true(text.includes('ADDDDDDDDDA'), 'MICR transit field masked');
  t.false(text.includes('322271627'), 'no routing number on a test check');
});
