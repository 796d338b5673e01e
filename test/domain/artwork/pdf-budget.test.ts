// The decode budget of uploaded PDFs, on real files: bombs of each kind are stopped at their budget
// (having inflated no more than it), ordinary PDFs with images are counted and pass.
import test from 'ava';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { decodedSize } from '../../../engine/domain/artwork/pdf-budget';
import { DECODE_BUDGET } from '../../../engine/domain/artwork/check-artwork';
import { bombPdf, pdfOf } from './pdf-fixtures';

const MB = 1_048_576;

test('an object-stream bomb passes the objects budget and the scan stops there', async (t) => {
  const seen = await decodedSize(await bombPdf('objects', 48), DECODE_BUDGET);
  t.is(seen.over, 'objects');
  t.true(seen.counted.objects <= DECODE_BUDGET.objects + 1, `counted ${seen.counted.objects}`);
});

test('a page-content bomb passes the drawing budget', async (t) => {
  const seen = await decodedSize(await bombPdf('drawing', 96), DECODE_BUDGET);
  t.is(seen.over, 'drawing');
});

test('a tiny image that stands for 30000x30000 px passes the total budget', async (t) => {
  const seen = await decodedSize(await bombPdf('image'), DECODE_BUDGET);
  t.is(seen.over, 'total');
});

test('an ordinary PDF with a 300 DPI photo is counted at its pixel size and passes', async (t) => {
  const doc = await PDFDocument.create();
  const page = doc.addPage([6.25 * 72, 4.25 * 72]);
  const png = await sharp({ create: { width: 1875, height: 1275, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  const image = await doc.embedPng(png);
  page.drawImage(image, { x: 0, y: 0, width: 6.25 * 72, height: 4.25 * 72 });
  const seen = await decodedSize(Buffer.from(await doc.save()), DECODE_BUDGET);
  t.is(seen.over, undefined);
  t.true(seen.counted.images >= 1875 * 1275 * 3, `images ${seen.counted.images / MB} MB`);
  const plain = await decodedSize(await pdfOf([[6.25, 4.25]]), DECODE_BUDGET);
  t.is(plain.over, undefined);
});
