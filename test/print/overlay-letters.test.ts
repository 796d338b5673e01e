// The composer end to end for letters: address placements, the inserted address page, the certified
// and registered cover sheet, the perforation, read back through pdfjs.
import test from 'ava';
import { sampleTracking } from '../../engine/print/overlay/imb';
import { trackingNumberOf } from '../../engine/print/overlay/tracking-number';
import type { OverlayPiece } from '../../engine/print/overlay/types';
import { letterAddressZone } from '../../engine/catalog/products';
import { fillsIn, inside, textIn, zoneBox, type PdfPageRead } from '../helpers/pdf-read';
import { ABROAD, artwork, compose, FROM, imbIn, joined, TO } from './overlay-fixtures';

for (const placement of ['top_first_page', 'bottom_first_page', 'bottom_first_page_center']) {
  test(`letter, ${placement}: recipient and IMb in the placement's zone on page 1 only`, async (t) => {
    const piece: OverlayPiece = { id: `ltr_${placement}`, to: TO, from: FROM, address_placement: placement };
    const pdf = await compose({ kind: 'letters', piece, sides: { file: await artwork(8.5, 11, 3) } });
    t.is(pdf.pageCount, 3);
    for (const page of pdf.pages) t.deepEqual([page.width, page.height], [612, 792]);
    const zone = letterAddressZone(placement, 11);
    t.deepEqual(textIn(pdf.pages[0], zoneBox(zone)).slice(0, 2), ['Harry Zhang', 'Lob']);
    const name = pdf.pages[0].text.find((item) => item.str === 'Harry Zhang')!;
    t.true(inside(name, zoneBox(zone)));
    const imb = imbIn(pdf.pages[0], zone);
    t.deepEqual([imb.tracking, imb.routing], [sampleTracking(piece.id), '941071741']);
    t.false(joined(pdf.pages[1]).includes('Harry Zhang'));
    t.true(joined(pdf.pages[2]).includes('ARTWORK 3'));
  });
}

test('legal-size letter: 8.5 x 14 in pages, the address in the top window', async (t) => {
  const piece: OverlayPiece = { id: 'ltr_legal', to: TO, from: FROM };
  const pdf = await compose({ kind: 'letters', size: 'us_legal', piece, sides: { file: await artwork(8.5, 14, 2) } });
  t.deepEqual(
    pdf.pages.map((p) => [p.width, p.height]),
    [
      [612, 1008],
      [612, 1008],
    ],
  );
  t.is(imbIn(pdf.pages[0], letterAddressZone('top_first_page', 14)).routing, '941071741');
});

test('letter, insert_blank_page: an address page in front (a whole sheet when double-sided)', async (t) => {
  const file = await artwork(8.5, 11, 2);
  const piece: OverlayPiece = { id: 'ltr_blank', to: TO, from: FROM, address_placement: 'insert_blank_page' };
  const single = await compose({ kind: 'letters', piece: { ...piece, double_sided: false }, sides: { file } });
  t.is(single.pageCount, 3);
  const first = joined(single.pages[0]);
  t.true(first.includes('Harry Zhang') && first.includes('Leore Avidar'));
  t.false(first.includes('ARTWORK'));
  t.true(
    inside(
      single.pages[0].text.find((i) => i.str === 'Harry Zhang')!,
      zoneBox(letterAddressZone('top_first_page', 11)),
    ),
  );
  t.is(imbIn(single.pages[0], letterAddressZone('top_first_page', 11)).routing, '941071741');
  t.true(joined(single.pages[1]).includes('ARTWORK 1'));
  t.false(joined(single.pages[1]).includes('Harry Zhang'));

  const duplex = await compose({ kind: 'letters', piece: { ...piece, double_sided: true }, sides: { file } });
  t.is(duplex.pageCount, 4);
  t.is(duplex.pages[1].text.length, 0);
  t.true(joined(duplex.pages[2]).includes('ARTWORK 1'));
});

test('certified letter: the cover sheet in front, with banner, tracking number and address', async (t) => {
  const piece: OverlayPiece = { id: 'ltr_cert', to: TO, from: FROM, extra_service: 'certified', double_sided: false };
  const pdf = await compose({ kind: 'letters', piece, sides: { file: await artwork(8.5, 11, 2) } });
  t.is(pdf.pageCount, 3);
  const cover = pdf.pages[0];
  const tracking = trackingNumberOf(piece);
  t.regex(tracking.value, /^93921999999\d{11}$/);
  const text = joined(cover);
  t.true(text.includes('CERTIFIED MAIL'));
  t.true(text.includes(tracking.display));
  t.false(text.includes('ARTWORK'));
  t.is(imbIn(cover, letterAddressZone('top_first_page', 11)).routing, '941071741');
  // the IMpb bars: a band of tall black rectangles across the middle of the page
  const band = { left: 0, top: 4 * 72, width: 612, height: 3 * 72 };
  t.true(fillsIn(cover, band, '#000000').filter((s) => s.rect && s.height > 50).length > 30);
  // the artwork's first page is left as it is: the cover sheet carries the address
  t.false(joined(pdf.pages[1]).includes('Harry Zhang'));

  const kept = {
    ...piece,
    extra_service: 'certified_return_receipt' as const,
    tracking_number: '9407111899560000000017',
  };
  const receipt = await compose({ kind: 'letters', piece: kept, sides: { file: await artwork(8.5, 11) } });
  t.is(receipt.pageCount, 2);
  t.true(joined(receipt.pages[0]).includes('RETURN RECEIPT REQUESTED'));
  t.true(joined(receipt.pages[0]).includes('9407 1118 9956 0000 0000 17'));
});

test('registered letter abroad: REGISTERED MAIL with an S10 number, no IMb', async (t) => {
  const piece: OverlayPiece = { id: 'ltr_reg', to: ABROAD, from: FROM, extra_service: 'registered' };
  const pdf = await compose({ kind: 'letters', piece, sides: { file: await artwork(8.5, 11) } });
  t.is(pdf.pageCount, 3); // cover sheet and its blank back, double-sided by default
  const text = joined(pdf.pages[0]);
  t.true(text.includes('REGISTERED MAIL'));
  t.regex(text, /RR \d{3} \d{3} \d{3} US/);
  t.true(textIn(pdf.pages[0], zoneBox(letterAddressZone('top_first_page', 11))).includes('CANADA'));
  const zone = zoneBox(letterAddressZone('top_first_page', 11));
  t.is(fillsIn(pdf.pages[0], zone, '#000000').length, 0);
});

test('perforated_page: a dashed line 3.67 in above the bottom of that page, labelled', async (t) => {
  const piece: OverlayPiece = { id: 'ltr_perf', to: TO, from: FROM, perforated_page: 2 };
  const pdf = await compose({ kind: 'letters', piece, sides: { file: await artwork(8.5, 11, 3) } });
  t.is(pdf.pageCount, 3);
  const y = 792 - 3.67 * 72;
  const perforation = (page: PdfPageRead) =>
    page.shapes.filter((s) => s.paint === 'stroke' && Math.abs(s.top - y) < 0.5 && s.width > 600 && s.height < 0.5);
  t.is(perforation(pdf.pages[1]).length, 1);
  t.is(perforation(pdf.pages[0]).length, 0);
  t.is(perforation(pdf.pages[2]).length, 0);
  const label = pdf.pages[1].text.find((i) => i.str === 'perforation');
  t.truthy(label);
  t.true(label!.left < 36 && Math.abs(label!.top + label!.height - y) < 8);
});

test('a letter without its file is refused', async (t) => {
  await t.throwsAsync(compose({ kind: 'letters', piece: { id: 'ltr_none', to: TO }, sides: {} }), {
    message: /file artwork/,
  });
});
