// Thumbnails: one { small, medium, large } set of PNGs per page, at the documented widths, drawn from
// the PDF in worker threads (a standard font the PDF does not embed included).
import test from 'ava';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { renderThumbnails, THUMBNAIL_WIDTHS, ThumbnailThreads, thumbnails } from '../../engine/print/thumbnails';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Pages of the given sizes (points), each with a red left half and its number in Helvetica. */
async function pdfOf(sizes: [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  sizes.forEach(([width, height], i) => {
    const page = doc.addPage([width, height]);
    page.drawRectangle({ x: 0, y: 0, width: width / 2, height, color: rgb(1, 0, 0) });
    page.drawText(`page ${i + 1}`, { x: width / 2 + 10, y: height / 2, size: 24, font });
  });
  return doc.save();
}

test('a postcard side gives three PNGs at 320, 640 and 1280 px wide', async (t) => {
  const [page, ...rest] = await thumbnails(await pdfOf([[450, 306]]));
  t.is(rest.length, 0);
  for (const size of ['small', 'medium', 'large'] as const) {
    const png = page[size];
    t.deepEqual(png.subarray(0, 8), PNG_SIGNATURE, size);
    const meta = await sharp(png).metadata();
    t.is(meta.format, 'png');
    t.is(meta.width, THUMBNAIL_WIDTHS[size], size);
    t.is(meta.height, Math.round((THUMBNAIL_WIDTHS[size] * 306) / 450), size);
  }
  const { data, info } = await sharp(page.medium).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
  ];
  t.deepEqual(at(10, 10), [255, 0, 0], 'the red half');
  t.deepEqual(at(info.width - 5, 5), [255, 255, 255], 'white where nothing is drawn');
});

test('a four-page letter gives four sets, in page order', async (t) => {
  const letter: [number, number] = [612, 792];
  const pages = await thumbnails(await pdfOf([letter, letter, letter, letter]));
  t.is(pages.length, 4);
  for (const page of pages) {
    t.is((await sharp(page.large).metadata()).height, Math.round((1280 * 792) / 612));
    t.is((await sharp(page.small).metadata()).width, 320);
  }
  t.notDeepEqual(pages[0].large, pages[1].large, 'each page drawn on its own');
});

test('the threads draw what the calling thread would; a broken PDF fails its call only', async (t) => {
  const pdf = await pdfOf([[450, 306]]);
  t.deepEqual(await thumbnails(pdf), await renderThumbnails(pdf));
  await t.throwsAsync(thumbnails(Buffer.from('%PDF-1.7 not really')));
  t.is((await thumbnails(pdf)).length, 1);
});

test('a PDF past the time limit fails its call; its thread is ended and the next call gets a new one', async (t) => {
  const threads = new ThumbnailThreads(1, 1); // one thread, and 1 ms: no real PDF is drawn in time
  t.teardown(() => threads.close());
  const letter = await pdfOf(Array.from({ length: 8 }, (): [number, number] => [612, 792]));
  const late = { message: 'the thumbnails took longer than 1 ms' };
  await t.throwsAsync(threads.thumbnails(letter), late);
  await t.throwsAsync(threads.thumbnails(letter), late, 'a fresh thread took it (not the ended one)');
});
