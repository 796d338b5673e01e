// What the artwork checks need to know of a PDF: whether it is encrypted, its pages' sizes as shown
// (MediaBox turned by /Rotate), and the fonts it uses without embedding them.
import type { PDFDict, PDFDocument, PDFObject } from 'pdf-lib';
import { POINTS_PER_INCH } from '../../catalog/products';
import { pdfLib } from '../../base/packages';

export interface PdfPage {
  /** inches, as the page is shown (a /Rotate of 90 or 270 swaps width and height) */
  width: number;
  height: number;
}

export type PdfInspection =
  { readable: false; encrypted: boolean } | { readable: true; pages: PdfPage[]; unembeddedFonts: string[] };

const get = (dict: PDFDict, key: string): PDFObject | undefined => dict.lookup(pdfLib().PDFName.of(key));
const dictOf = (value: PDFObject | undefined): PDFDict | undefined =>
  value instanceof pdfLib().PDFDict ? value : value instanceof pdfLib().PDFStream ? value.dict : undefined;
const nameOf = (value: PDFObject | undefined): string | undefined =>
  value instanceof pdfLib().PDFName ? value.decodeText() : undefined;

/** A font's program is in the file: FontFile (Type 1), FontFile2 (TrueType) or FontFile3 (CFF, OpenType). */
function embedded(font: PDFDict): boolean {
  if (nameOf(get(font, 'Subtype')) === 'Type3') return true; // its glyphs are PDF drawings in the file
  if (nameOf(get(font, 'Subtype')) === 'Type0') {
    const descendants = get(font, 'DescendantFonts');
    const first = descendants instanceof pdfLib().PDFArray ? dictOf(descendants.lookup(0)) : undefined;
    return first ? embedded(first) : false;
  }
  const descriptor = dictOf(get(font, 'FontDescriptor'));
  return descriptor !== undefined && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => get(descriptor, k));
}

/** Base font names of the unembedded fonts in `resources` and the form XObjects it draws, subset tags removed. */
function collectFonts(resources: PDFDict | undefined, found: Set<string>, seen: Set<PDFDict>): void {
  if (!resources || seen.has(resources)) return;
  seen.add(resources);
  const fonts = dictOf(get(resources, 'Font'));
  for (const [, value] of fonts?.entries() ?? []) {
    const font = dictOf(fonts!.context.lookup(value));
    if (!font || embedded(font)) continue;
    const base = nameOf(get(font, 'BaseFont')) ?? '(unnamed)';
    found.add(base.replace(/^[A-Z]{6}\+/, ''));
  }
  const xobjects = dictOf(get(resources, 'XObject'));
  for (const [, value] of xobjects?.entries() ?? []) {
    const form = dictOf(xobjects!.context.lookup(value));
    if (form && nameOf(get(form, 'Subtype')) === 'Form') collectFonts(dictOf(get(form, 'Resources')), found, seen);
  }
}

function pageOf(page: ReturnType<PDFDocument['getPage']>): PdfPage {
  const box = page.getMediaBox();
  const turned = Math.abs(page.getRotation().angle) % 180 === 90;
  const width = Math.abs(box.width) / POINTS_PER_INCH;
  const height = Math.abs(box.height) / POINTS_PER_INCH;
  return turned ? { width: height, height: width } : { width, height };
}

export async function inspectPdf(bytes: Uint8Array): Promise<PdfInspection> {
  let doc: PDFDocument;
  try {
    // loaded past encryption only to ask `isEncrypted`: pdf-lib's EncryptedPDFError is compiled to ES5
    // and fails `instanceof`
    doc = await pdfLib().PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch {
    return { readable: false, encrypted: false };
  }
  if (doc.isEncrypted) return { readable: false, encrypted: true };
  try {
    const pages = doc.getPages();
    const fonts = new Set<string>();
    const seen = new Set<PDFDict>();
    for (const page of pages) collectFonts(page.node.Resources(), fonts, seen);
    return { readable: true, pages: pages.map(pageOf), unembeddedFonts: [...fonts] };
  } catch {
    return { readable: false, encrypted: false };
  }
}
