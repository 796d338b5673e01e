// The spec's rules for artwork files, checked when a piece is created so a bad file is refused then
// rather than failing at render: PDFs (not encrypted, page count, one page size that is the product's,
// fonts embedded or standard) and images (at most 5 MB, the product's proportions, at least 300 DPI).
// HTML files are merged and rendered to the right size, so they have nothing to check here.
//
// Cards (postcards, self mailers, snap packs) take their page with 1/8 in bleed each side, or at trim
// size (the renderer scales that onto the bleed page); letters and checks take exact letter pages.
import { readFile } from 'node:fs/promises';
import { ApiError } from '../../base/errors';
import { BLEED_INCHES, geometryOf, letterPageLimit, type SideGeometry } from '../../catalog/products';
import { inspectImage } from './inspect-image';
import { inspectPdf, type PdfPage } from './inspect-pdf';
import { decodedSize, type DecodeBudget } from './pdf-budget';
import type { ArtworkType } from './sniff';
import { STANDARD_FONTS } from './standard-fonts';

export interface ArtworkProduct {
  /** the resource: postcards, letters, ... */
  kind: string;
  /** the piece's size ('' for the kind's default) */
  size: string;
  /** letters: to an address outside the US */
  abroad: boolean;
  /** letters: printed on both sides */
  doubleSided: boolean;
}

export const IMAGE_LIMIT_BYTES = 5 * 1_048_576;
export const MIN_DPI = 300;
/** Images finer than this are refused: far more pixels than print needs, and each one is held to render. */
export const MAX_DPI = 600;
const MB = 1_048_576;
/**
 * What an uploaded PDF may decode to (decompression bombs): a few hundred print pages' worth of images,
 * page drawing far past any design tool's output, object streams a parser reads at once.
 */
export const DECODE_BUDGET: DecodeBudget = { total: 256 * MB, drawing: 64 * MB, objects: 16 * MB };
const BUDGET_TEXT: Record<keyof DecodeBudget, string> = {
  total: 'content in all',
  drawing: 'page drawing instructions',
  objects: 'compressed objects',
};
/** page sizes may differ from the product's by this much (1 pt), for rounding in design tools */
const TOLERANCE_IN = 1 / 72;
/** an image's proportions may differ from the page's by this fraction (a pixel's rounding, not a crop) */
const ASPECT_TOLERANCE = 0.01;

const refuse = (code: string, message: string) => new ApiError(code, message, 422);
const inches = (n: number) => String(Math.round(n * 100) / 100);
const dims = (w: number, h: number) => `${inches(w)}x${inches(h)}`;
const sameSize = (a: PdfPage, b: PdfPage) =>
  Math.abs(a.width - b.width) <= TOLERANCE_IN && Math.abs(a.height - b.height) <= TOLERANCE_IN;

interface Target {
  side: SideGeometry;
  geometry: ReturnType<typeof geometryOf>;
  /** `a 4x6 postcard side`, `a us_letter letter page`, ... */
  label: string;
  bleed: boolean;
  maxPages: number;
  /** why `maxPages`, for the message */
  limitNote: string;
}

function targetOf(product: ArtworkProduct, field: string): Target {
  const geometry = geometryOf(product.kind, product.size);
  const side = geometry.sides.find((s) => s.field === field);
  if (!side) throw new Error(`${product.kind} has no artwork side ${field}`);
  const size = geometry.size;
  if (product.kind === 'letters') {
    const where = product.abroad ? 'outside the US' : 'in the US';
    const printed = product.doubleSided ? 'double-sided' : 'single-sided';
    return {
      side,
      geometry,
      label: `a ${size} letter page`,
      bleed: false,
      maxPages: letterPageLimit(product.abroad, product.doubleSided),
      limitNote: `a letter to an address ${where} printed ${printed}`,
    };
  }
  if (product.kind === 'checks') {
    const bottom = field === 'check_bottom';
    return {
      side,
      geometry,
      label: `a check's ${field} page`,
      bleed: false,
      maxPages: bottom ? 1 : letterPageLimit(false, true),
      limitNote: bottom ? 'the artwork below a check' : "a check's attachment",
    };
  }
  const what =
    product.kind === 'postcards'
      ? `a ${size} postcard side`
      : product.kind === 'self_mailers'
        ? `the ${field} of a ${size} self mailer`
        : product.kind === 'cards' || product.kind === 'buckslips'
          ? `the ${field} of a ${size} ${product.kind.slice(0, -1)}`
          : `the ${field} of a snap pack`;
  return { side, geometry, label: what, bleed: true, maxPages: 1, limitNote: what };
}

function pageSizeText(target: Target): string {
  const { width, height } = target.side;
  if (!target.bleed) return `${target.label} is ${dims(width, height)} in`;
  const trim = dims(width - 2 * BLEED_INCHES, height - 2 * BLEED_INCHES);
  return `${target.label} is ${dims(width, height)} in (trim plus 1/8 in bleed; ${trim} in at trim size is also taken)`;
}

async function checkPdf(bytes: Buffer, field: string, target: Target): Promise<void> {
  // before any parser opens it: a bomb is refused having cost one inflate chunk of memory
  const decoded = await decodedSize(bytes, DECODE_BUDGET);
  if (decoded.over)
    throw refuse(
      'file_size_exceeds_limit',
      `${field}: the PDF decodes to more than ${DECODE_BUDGET[decoded.over] / MB} MB of ${BUDGET_TEXT[decoded.over]}; ` +
        'export it again with fewer or smaller images and flattened drawings',
    );
  const pdf = await inspectPdf(bytes);
  if (!pdf.readable) {
    if (pdf.encrypted)
      throw refuse('pdf_encrypted', `${field}: the PDF is encrypted; save it without a password or restrictions`);
    throw refuse('invalid_file', `${field}: the PDF could not be read`);
  }
  const { pages } = pdf;
  const count = `the PDF has ${pages.length} page${pages.length === 1 ? '' : 's'}`;
  if (pages.length < 1)
    throw refuse('file_pages_below_min', `${field}: ${count}; ${target.limitNote} takes at least 1`);
  if (pages.length > target.maxPages) {
    const takes = target.maxPages === 1 ? 'takes 1' : `takes at most ${target.maxPages}`;
    throw refuse('file_pages_exceed_max', `${field}: ${count}; ${target.limitNote} ${takes}`);
  }
  const odd = pages.findIndex((p) => !sameSize(p, pages[0]));
  if (odd > 0)
    throw refuse(
      'inconsistent_page_dimensions',
      `${field}: the PDF's pages differ in size (page 1 is ${dims(pages[0].width, pages[0].height)} in, ` +
        `page ${odd + 1} is ${dims(pages[odd].width, pages[odd].height)} in)`,
    );
  const { width, height } = target.side;
  const accepted: PdfPage[] = [{ width, height }];
  if (target.bleed) accepted.push({ width: width - 2 * BLEED_INCHES, height: height - 2 * BLEED_INCHES });
  if (!accepted.some((size) => sameSize(pages[0], size)))
    throw refuse(
      'invalid_file_dimensions',
      `${field}: the PDF's pages are ${dims(pages[0].width, pages[0].height)} in; ${pageSizeText(target)}`,
    );
  const missing = pdf.unembeddedFonts.filter((font) => !STANDARD_FONTS.has(font));
  if (missing.length)
    throw refuse(
      'unembedded_fonts',
      `${field}: the PDF uses fonts that are not embedded: ${missing.sort().join(', ')}; embed them (or use standard fonts)`,
    );
}

async function checkImage(file: ArtworkFile, field: string, target: Target): Promise<void> {
  const size = Buffer.isBuffer(file) ? file.length : file.size;
  if (size > IMAGE_LIMIT_BYTES)
    throw refuse('file_size_exceeds_limit', `${field} is an image of more than 5 MB; images may be at most 5 MB`);
  const image = await inspectImage(Buffer.isBuffer(file) ? file : file.path);
  if (!image) throw refuse('invalid_file', `${field}: the image could not be read`);
  const { width, height } = target.side;
  const px = `the image is ${image.width}x${image.height} px`;
  const expectedHeight = (image.width * height) / width;
  if (Math.abs(image.height - expectedHeight) > expectedHeight * ASPECT_TOLERANCE)
    throw refuse(
      'invalid_file_dimensions',
      `${field}: ${px}; ${target.label} is ${dims(width, height)} in, and an image must have its proportions ` +
        '(it is neither cropped nor stretched)',
    );
  const dpi = Math.min(image.width / width, image.height / height);
  if (dpi > MAX_DPI)
    throw refuse(
      'file_size_exceeds_limit',
      `${field}: ${px}, ${Math.floor(dpi)} DPI over ${target.label} of ${dims(width, height)} in; ` +
        `at most ${MAX_DPI} DPI (${Math.floor(width * MAX_DPI)}x${Math.floor(height * MAX_DPI)} px) is taken`,
    );
  if (dpi < MIN_DPI - 1e-9)
    throw refuse(
      'invalid_image_dpi',
      `${field}: ${px}, ${Math.floor(dpi)} DPI over ${target.label} of ${dims(width, height)} in; ` +
        `at least ${MIN_DPI} DPI (${Math.ceil(width * MIN_DPI)}x${Math.ceil(height * MIN_DPI)} px) is needed`,
    );
}

/** A file to check: bytes in memory (a fetched file), or an upload on disk with its size. */
export type ArtworkFile = Buffer | { path: string; size: number };

/** Throws the spec's ApiError when `file` (of the sniffed `type`) may not be `field`'s artwork. */
export async function checkArtwork(
  file: ArtworkFile,
  type: ArtworkType,
  product: ArtworkProduct,
  field: string,
): Promise<void> {
  if (type === 'text/html') return;
  const target = targetOf(product, field);
  // pdf-lib parses a whole document from memory, so a PDF on disk is read for its check (and let go
  // after it); an image is read by sharp from its path
  if (type === 'application/pdf')
    return checkPdf(Buffer.isBuffer(file) ? file : await readFile(file.path), field, target);
  return checkImage(file, field, target);
}
