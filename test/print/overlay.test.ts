// The composer end to end for cards, mailers and checks: artwork PDFs made at the product size, the
// piece composed, the result read back through pdfjs (page sizes, text in zones, the IMb bars
// decoded from the drawn rectangles, the MICR line, what rasterizing shows).
import test from 'ava';
import { degrees, PDFDocument, rgb } from 'pdf-lib';
import { composePiece, type ComposeInput } from '../../engine/print/overlay/compose';
import { sampleTracking } from '../../engine/print/overlay/imb';
import type { OverlayPiece } from '../../engine/print/overlay/types';
import { CHECK_BOTTOM, geometryOf } from '../../engine/catalog/products';
import { uspsReadiness } from '../../engine/catalog/usps-identity';
import { fillsIn, readPdf, renderPage, textIn, zoneBox } from '../helpers/pdf-read';
import { ABROAD, artwork, compose, FROM, imbIn, joined, TO } from './overlay-fixtures';

test('postcard 4x6: exact page sizes, recipient, return and postage in their zones, IMb decodes', async (t) => {
  const side = await artwork(6.25, 4.25);
  const piece: OverlayPiece = { id: 'psc_5c002b86ce47537a', to: TO, from: FROM };
  const pdf = await compose({ kind: 'postcards', size: '4x6', piece, sides: { front: side, back: side } });
  const [, back] = geometryOf('postcards', '4x6').sides;
  t.is(pdf.pageCount, 2);
  for (const page of pdf.pages) t.deepEqual([page.width, page.height], [450, 306]);

  const page = pdf.pages[1];
  t.deepEqual(textIn(page, zoneBox(back.addressZone!)), [
    'Harry Zhang',
    'Lob',
    '210 King St',
    'Suite 6100',
    'San Francisco CA 94107-1741',
  ]);
  t.deepEqual(textIn(page, zoneBox(back.returnZone!)), ['Leore Avidar', '185 Berry St', 'San Francisco CA 94107']);
  t.deepEqual(textIn(page, zoneBox(back.postageZone!)), [
    'FIRST-CLASS MAIL',
    'U.S. POSTAGE PAID',
    'SAMPLE',
    'NOT MAILABLE',
  ]);
  const imb = imbIn(page, back.addressZone!);
  t.is(imb.count, 65);
  t.is(imb.tracking, sampleTracking(piece.id));
  t.is(imb.tracking, `00300999999${imb.tracking.slice(11)}`);
  t.is(imb.routing, '941071741');
  // the artwork is still there, under the marks; the front has none of them
  t.true(joined(page).includes('ARTWORK 1'));
  t.false(joined(pdf.pages[0]).includes('Harry Zhang'));
});

test('the IMb takes the delivery point and the mail type; an address abroad gets none', async (t) => {
  const side = await artwork(9.25, 6.25);
  const piece: OverlayPiece = { id: 'psc_standard', to: TO, mail_type: 'usps_standard' };
  const pdf = await compose({ kind: 'postcards', size: '6x9', piece, sides: { back: side }, deliveryPoint: '10' });
  const [, back] = geometryOf('postcards', '6x9').sides;
  t.deepEqual([pdf.pages[0].width, pdf.pages[0].height], [666, 450]);
  const imb = imbIn(pdf.pages[1], back.addressZone!);
  t.is(imb.routing, '94107174110');
  t.is(imb.tracking.slice(0, 5), '00301');
  t.true(textIn(pdf.pages[1], zoneBox(back.postageZone!)).includes('STANDARD'));

  const small = await artwork(6.25, 4.25);
  const abroad = await compose({
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_ca', to: ABROAD },
    sides: { back: small },
  });
  const [, card] = geometryOf('postcards', '4x6').sides;
  t.deepEqual(textIn(abroad.pages[1], zoneBox(card.addressZone!)), [
    'Anne Shirley',
    '370 Water St',
    'Summerside PE C1N 1C4',
    'CANADA',
  ]);
  t.is(fillsIn(abroad.pages[1], zoneBox(card.addressZone!), '#000000').length, 0);
  t.true(textIn(abroad.pages[1], zoneBox(card.postageZone!)).includes('INTERNATIONAL'));
});

test('self mailers and snap packs: the outside carries the marks, pages at the exact size', async (t) => {
  const products: ['self_mailers' | 'snap_packs', string, [number, number], [number, number]][] = [
    ['self_mailers', '11x9_bifold', [9.25, 11.25], [9.25, 11.25]],
    ['snap_packs', '8.5x11', [8.75, 11.25], [18.25, 6.25]],
  ];
  for (const [kind, size, inside, outside] of products) {
    const sides = { inside: await artwork(...inside), outside: await artwork(...outside) };
    const pdf = await compose({ kind, size, piece: { id: `${kind}_1`, to: TO, from: FROM }, sides });
    const geometry = geometryOf(kind, size);
    t.deepEqual(
      pdf.pages.map((p) => [p.width, p.height]),
      geometry.sides.map((s) => [s.width * 72, s.height * 72]),
    );
    t.true(textIn(pdf.pages[1], zoneBox(geometry.sides[1].addressZone!)).includes('Harry Zhang'));
    t.false(joined(pdf.pages[0]).includes('Harry Zhang'));
  }
});

test('artwork a hair off the size is trued up; far off, it is scaled onto an exact page', async (t) => {
  const near = await artwork(6.25 - 0.005, 4.25 + 0.005);
  const far = await artwork(6, 4);
  const pdf = await compose({
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_x', to: TO },
    sides: { front: far, back: near },
  });
  t.deepEqual(
    pdf.pages.map((p) => [p.width, p.height]),
    [
      [450, 306],
      [450, 306],
    ],
  );
  t.true(joined(pdf.pages[0]).includes('ARTWORK 1'));
});

const CHECK: OverlayPiece = {
  id: 'chk_534f10783683daa0',
  to: TO,
  from: FROM,
  amount: 1234.56,
  memo: 'rent',
  check_number: 10001,
  send_date: '2026-01-05T00:00:00.000Z',
  bank_account: {
    routing_number: '322271627',
    account_number: '123456789',
    signatory: 'Jane Doe',
    bank_name: 'JPMORGAN CHASE BANK',
  },
};

test('check: face with amount in words and figures, payee IMb, MICR glyphs and its ASCII text', async (t) => {
  const attachment = await artwork(8.5, 11, 2);
  const pdf = await compose({ kind: 'checks', piece: CHECK, sides: { attachment } });
  t.is(pdf.pageCount, 3);
  for (const page of pdf.pages) t.deepEqual([page.width, page.height], [612, 792]);
  const face = pdf.pages[0];
  const text = joined(face);
  for (const expected of [
    'One thousand two hundred thirty-four and 56/100 dollars',
    '$*****1,234.56',
    'PAY TO THE ORDER OF',
    'January 5, 2026',
    'JPMORGAN CHASE BANK',
    'rent',
    'Jane Doe',
  ])
    t.true(text.includes(expected), expected);
  const number = face.text.find((i) => i.str === '10001')!;
  t.true(number.left > 6.5 * 72 && number.top < 0.8 * 72, 'check number top right');
  t.true(text.replace(/\s+/g, ' ').includes('C10001C A322271627A 123456789C'));
  const micrText = face.text.find((i) => i.str.startsWith('C10001C'))!;
  t.true(micrText.top > (3.5 - 0.625) * 72, 'the MICR text sits in the clear band');

  // the glyphs: filled black shapes in the clear band, the bottom 5/8 in of the 3.5 in check
  const band = { left: 0, top: (3.5 - 0.625) * 72, width: 612, height: 0.625 * 72 };
  const glyphs = fillsIn(face, band, '#000000');
  t.true(glyphs.length > 60, `${glyphs.length} glyph rectangles`);
  for (const g of glyphs) t.true(g.top >= (3.5 - 7 / 16) * 72 - 0.5 && g.top + g.height <= (3.5 - 3 / 16) * 72 + 0.5);

  const imb = imbIn(face, { x: 0.6, y: 1.75, width: 4, height: 1.1 });
  t.deepEqual([imb.tracking, imb.routing], [sampleTracking(CHECK.id), '941071741']);
  t.true(joined(pdf.pages[1]).includes('ARTWORK 1'));
});

test('check: the message prints below the check; check_bottom artwork fills that part instead', async (t) => {
  const withMessage = await compose({
    kind: 'checks',
    piece: { ...CHECK, message: 'Thank you for your business' },
    sides: {},
  });
  t.is(withMessage.pageCount, 1);
  t.deepEqual(textIn(withMessage.pages[0], zoneBox(CHECK_BOTTOM)), ['Thank you for your business']);

  const bottom = await artwork(8.5, 11);
  const bytes = await composePiece({
    kind: 'checks',
    size: 'us_letter',
    piece: CHECK,
    sides: { check_bottom: bottom },
  });
  const withBottom = await readPdf(bytes);
  t.is(withBottom.pageCount, 1);
  t.deepEqual(textIn(withBottom.pages[0], zoneBox(CHECK_BOTTOM)), ['ARTWORK 1']);
  // what shows: the artwork's blue below the check, white on the check face (the artwork is clipped)
  const pixel = await renderPage(bytes, 1);
  t.deepEqual(pixel(300, 5 * 72), [51, 102, 204]);
  t.deepEqual(pixel(300, 10 * 72), [51, 102, 204]);
  t.deepEqual(pixel(300, 1.7 * 72), [255, 255, 255]);
  t.deepEqual(pixel(300, 3.4 * 72), [255, 255, 255]);
});

test('the same piece composes to the same bytes (a retried render writes the same file)', async (t) => {
  const side = await artwork(6.25, 4.25);
  const input: ComposeInput = {
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_same', to: TO },
    sides: { back: side },
  };
  const first = await composePiece(input);
  await new Promise((resolve) => setTimeout(resolve, 1100));
  t.deepEqual(Buffer.from(await composePiece(input)), Buffer.from(first));
});

/** A 3 x 3 grid of colours on a 4.25 x 6.25 in page, turned by `angle` and its MediaBox moved by `origin`. */
async function turnedArtwork(angle: number, origin: [number, number] = [0, 0]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const [w, h] = angle % 180 === 0 ? [450, 306] : [306, 450];
  const page = doc.addPage([w, h]);
  const colours = [rgb(1, 0, 0), rgb(0, 0.6, 0), rgb(0, 0, 1), rgb(1, 1, 0), rgb(0, 1, 1), rgb(1, 0, 1)];
  for (let i = 0; i < 3; i++)
    for (let j = 0; j < 3; j++)
      page.drawRectangle({
        x: (i * w) / 3,
        y: (j * h) / 3,
        width: w / 3,
        height: h / 3,
        color: colours[(i + 2 * j) % 6],
      });
  page.setRotation(degrees(angle));
  page.translateContent(origin[0], origin[1]);
  page.setMediaBox(origin[0], origin[1], w, h);
  return doc.save();
}

test('a page turned by /Rotate, or with its MediaBox off the origin, prints as a viewer shows it', async (t) => {
  for (const [angle, origin] of [[90], [180], [270], [0, [20, 30]], [90, [20, 30]]] as [number, [number, number]?][]) {
    const side = await turnedArtwork(angle, origin);
    const bytes = await composePiece({
      kind: 'postcards',
      size: '4x6',
      piece: { id: 'psc_x', to: TO },
      sides: { front: side, back: side },
    });
    const [expected, actual] = await Promise.all([renderPage(side, 1, 1), renderPage(bytes, 1, 1)]);
    const read = await readPdf(bytes);
    t.deepEqual([read.pages[0].width, read.pages[0].height], [450, 306], `rotate ${angle}`);
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) {
        const [x, y] = [75 + 150 * i, 51 + 102 * j];
        t.deepEqual(actual(x, y), expected(x, y), `rotate ${angle}, origin ${String(origin)}: block at ${x},${y}`);
      }
  }
});

test("the indicia follows the mail class and names the operator's permit; the stored IMb is the one drawn", async (t) => {
  const usps = uspsReadiness({
    mailerId: '123456',
    crid: '12345678',
    permitNumber: '4321',
    permitCity: 'San Francisco',
    permitState: 'ca',
    stidFirstClass: '300',
    stidMarketing: '301',
  });
  if (!usps.ready) throw new Error('the identity is complete');
  const side = await artwork(6.25, 4.25);
  const [, back] = geometryOf('postcards', '4x6').sides;
  const indicia = async (piece: OverlayPiece) => {
    const pdf = await compose({ kind: 'postcards', size: '4x6', piece, sides: { back: side }, usps: usps.identity });
    return { lines: textIn(pdf.pages[1], zoneBox(back.postageZone!)), imb: imbIn(pdf.pages[1], back.addressZone!) };
  };
  const imb = { tracking_code: '00300123456000000042', routing_code: '941071741' };
  const firstClass = await indicia({ id: 'psc_fc', to: TO, imb });
  t.deepEqual(firstClass.lines, ['FIRST-CLASS MAIL', 'U.S. POSTAGE PAID', 'SAN FRANCISCO, CA', 'PERMIT NO. 4321']);
  t.deepEqual([firstClass.imb.tracking, firstClass.imb.routing], [imb.tracking_code, imb.routing_code]);
  const marketing = await indicia({ id: 'psc_mm', to: TO, mail_type: 'usps_standard' });
  t.deepEqual(marketing.lines, ['PRESORTED', 'STANDARD', 'U.S. POSTAGE PAID', 'SAN FRANCISCO, CA', 'PERMIT NO. 4321']);
  // without the identity (a test piece): marked as a sample, never a permit
  const sample = await compose({
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_t', to: TO },
    sides: { back: side },
  });
  t.false(textIn(sample.pages[1], zoneBox(back.postageZone!)).some((line) => line.startsWith('PERMIT')));
});
