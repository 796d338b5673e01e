// Thumbnails of a rendered PDF, in the calling thread: each page drawn once by PDFium at the large width,
// as RGB (the PNGs have no alpha, so none is drawn only to be dropped), then scaled down with sharp for
// the medium and small ones (the small from the medium). PNG throughout.
// Measured on this machine, CPU a two-sided postcard (the engine's bench card, both sides with the
// overlay): 93 ms drawn as RGBA with its alpha removed by sharp, 60 as RGB, for the same bytes: PDFium
// about 30 (half of it the document's first draw: fonts, images), sharp 20 (resizes 11, PNGs 9).
// Drawing each size with PDFium instead of resizing (the page loaded once): 65 ms; halving in
// JavaScript instead of sharp: the same 60.
import type Sharp from 'sharp';
import { sharp } from '../../base/packages';
import { RasterPdf, type RawImage } from './rasterize';

/** Widths in pixels; heights follow the page. Double steps, so each size is a clean 2:1 reduction. */
export const THUMBNAIL_WIDTHS = { small: 320, medium: 640, large: 1280 } as const;

/** A page far taller than wide (a stray PDF, never our products) is drawn narrower instead. */
const MAX_HEIGHT = 4 * THUMBNAIL_WIDTHS.large;

/**
 * Measured on this project's 2-core machine, sharp 0.34, per page (1280 / 640 / 320 px, ms and KB), a
 * postcard with a photo, then a text letter page:
 *   compressionLevel 1:   12 / 15 / 14 ms, 921 / 275 / 81 KB;  16 / 32 / 31 ms, 798 / 482 / 37 KB
 *   compressionLevel 2-3: 24 / 22 / 12 ms, 796 / 237 / 70 KB;  30 / 32 / 23 ms, 659 / 413 / 26 KB
 *   compressionLevel 6 (sharp's default): 40 / 22 / 13 ms, 784 / 235 / 69 KB;  57 / 43 / 28 ms, 644 / 404 / 28 KB
 *   level 9: the card 32 ms, the letter 425 ms at 1280; adaptiveFiltering: 2-4x slower at 1280;
 *   palette (quantized): 10-90x slower (effort 1: 466 ms, effort 7: 3.9 s for the card at 1280).
 * Level 1 is the fastest by far at the large size for 15-25% more bytes; at the smaller sizes the
 * resize costs more than the deflate. Drawing the page (PDFium) costs about 12 ms at 1280 px.
 */
const PNG: Sharp.PngOptions = { compressionLevel: 1, adaptiveFiltering: false, palette: false };

/**
 * Each step halves the width, where a linear kernel averages neighbouring pixels as well as lanczos3
 * does for a thumbnail; measured on a two-sided postcard: 52 ms a document against 61 with lanczos3.
 */
const HALVING: keyof Sharp.KernelEnum = 'linear';

export interface PageThumbnails {
  small: Buffer;
  medium: Buffer;
  large: Buffer;
}

async function encode(image: RawImage): Promise<PageThumbnails> {
  const raw = { width: image.width, height: image.height, channels: image.channels };
  const load = sharp();
  const medium = await load(image.data, { raw })
    .resize({ width: THUMBNAIL_WIDTHS.medium, kernel: HALVING })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const mediumRaw = { raw: { width: medium.info.width, height: medium.info.height, channels: 3 as const } };
  const [large, mediumPng, small] = await Promise.all([
    load(image.data, { raw }).png(PNG).toBuffer(),
    load(medium.data, mediumRaw).png(PNG).toBuffer(),
    load(medium.data, mediumRaw).resize({ width: THUMBNAIL_WIDTHS.small, kernel: HALVING }).png(PNG).toBuffer(),
  ]);
  return { small, medium: mediumPng, large };
}

/** One { small, medium, large } PNG set per page of `pdf`, in page order. */
export async function renderThumbnails(pdf: Uint8Array): Promise<PageThumbnails[]> {
  const doc = await RasterPdf.open(pdf);
  try {
    const pages: PageThumbnails[] = [];
    // page n+1 is drawn (this thread) while page n is encoded (sharp's threads); one in flight bounds memory
    let encoding: Promise<PageThumbnails> | undefined;
    for (let n = 1; n <= doc.pageCount; n++) {
      const image = await doc.rasterize(n, THUMBNAIL_WIDTHS.large, MAX_HEIGHT, 3);
      if (encoding) pages.push(await encoding);
      encoding = encode(image);
    }
    if (encoding) pages.push(await encoding);
    return pages;
  } finally {
    doc.close();
  }
}
