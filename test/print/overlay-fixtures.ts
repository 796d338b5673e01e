// Fixtures of the overlay tests: addresses, artwork PDFs made with pdf-lib at a product's size, and
// readers of what the composer drew (text of a page, the IMb of a zone decoded from its bars).
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { composePiece, type ComposeInput } from '../../engine/print/overlay/compose';
import type { PostalAddress } from '../../engine/print/overlay/types';
import type { Zone } from '../../engine/catalog/products';
import { barsFromBoxes, decodeImb } from '../helpers/imb-decode';
import { fillsIn, readPdf, zoneBox, type PdfPageRead } from '../helpers/pdf-read';

export const TO: PostalAddress = {
  name: 'Harry Zhang',
  company: 'Lob',
  address_line1: '210 King St',
  address_line2: 'Suite 6100',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107-1741',
  address_country: 'UNITED STATES',
};
export const FROM: PostalAddress = {
  name: 'Leore Avidar',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
  address_country: 'UNITED STATES',
};
export const ABROAD: PostalAddress = {
  name: 'Anne Shirley',
  address_line1: '370 Water St',
  address_city: 'Summerside',
  address_state: 'PE',
  address_zip: 'C1N 1C4',
  address_country: 'CANADA',
};

/** Artwork pages in inches, each a full-bleed colour with "ARTWORK n" written near the bottom left. */
export async function artwork(width: number, height: number, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([width * 72, height * 72]);
    page.drawRectangle({ x: 0, y: 0, width: width * 72, height: height * 72, color: rgb(0.2, 0.4, 0.8) });
    page.drawText(`ARTWORK ${n}`, { x: 20, y: 20, size: 14, font });
  }
  return doc.save();
}

export const joined = (page: PdfPageRead) => page.text.map((t) => t.str).join(' ');

/** The IMb drawn in a zone, read back from its bars (thin black rectangles) and decoded. */
export function imbIn(page: PdfPageRead, zone: Zone) {
  const bars = fillsIn(page, zoneBox(zone), '#000000').filter((s) => s.rect && s.width < 2 && s.height < 11);
  return { count: bars.length, ...decodeImb(barsFromBoxes(bars)) };
}

export const compose = (input: Partial<ComposeInput> & Pick<ComposeInput, 'kind' | 'piece' | 'sides'>) =>
  composePiece({ size: 'us_letter', ...input }).then(readPdf);
