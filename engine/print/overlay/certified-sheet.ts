// The cover sheet in front of a certified or registered letter: the service banner, the tracking
// number as text and as a barcode (IMpb GS1-128 for certified, Code 128 S10 for registered), the
// return address and the recipient block where the envelope window shows them.
import { LETTER_RETURN_ZONE, type Zone } from '../../catalog/products';
import { drawRecipient, drawReturnAddress } from './address-block';
import { barPattern, drawLinearBarcode, patternModules } from './linear-barcode';
import { type Doc, line, PT } from './pdf-doc';
import { imbCodesOf } from './imb';
import { trackingNumberOf } from './tracking-number';
import type { OverlayPiece } from './types';

const BANNER: Record<string, string> = {
  certified: 'CERTIFIED MAIL',
  certified_return_receipt: 'CERTIFIED MAIL',
  registered: 'REGISTERED MAIL',
};

/** X dimension 0.015 in (IMpb allows 0.013 to 0.021), bars 0.75 in tall. */
const MODULE = 0.015 * PT;
const BAR_HEIGHT = 0.75 * PT;

function centred(doc: Doc, text: string, y: number, pageWidth: number): void {
  line(doc, text, (pageWidth - doc.widthOfString(text)) / 2, y);
}

export interface CertifiedSheetOptions {
  /** page size, inches */
  width: number;
  height: number;
  /** the letter's address zone (inches) for its address placement */
  addressZone: Zone;
  deliveryPoint?: string;
}

/** Draws the cover sheet on the current (blank) page. */
export function drawCertifiedSheet(doc: Doc, piece: OverlayPiece, options: CertifiedSheetOptions): void {
  const service = piece.extra_service ?? 'certified';
  const tracking = trackingNumberOf(piece);
  const pageWidth = options.width * PT;
  if (piece.from) drawReturnAddress(doc, LETTER_RETURN_ZONE, piece.from);
  drawRecipient(doc, options.addressZone, piece.to, { codes: imbCodesOf(piece, options.deliveryPoint) });
  // The banner block goes in the free band between the top window and a bottom-placed address.
  const top = (options.addressZone.y < options.height / 2 ? 4 : 3.5) * PT;
  doc.fillColor('black');
  doc.rect(0.6 * PT, top, pageWidth - 1.2 * PT, 3).fill();
  doc.font('Helvetica-Bold').fontSize(28);
  centred(doc, BANNER[service], top + 14, pageWidth);
  let y = top + 52;
  if (service === 'certified_return_receipt') {
    doc.font('Helvetica-Bold').fontSize(12);
    centred(doc, 'RETURN RECEIPT REQUESTED', y, pageWidth);
    y += 20;
  }
  const pattern = barPattern(tracking.encoder, tracking.barcodeText);
  const barWidth = patternModules(pattern) * MODULE;
  drawLinearBarcode(doc, pattern, (pageWidth - barWidth) / 2, y + 10, MODULE, BAR_HEIGHT);
  y += 10 + BAR_HEIGHT + 8;
  doc.font('Helvetica-Bold').fontSize(12);
  centred(doc, tracking.display, y, pageWidth);
  doc.rect(0.6 * PT, y + 26, pageWidth - 1.2 * PT, 3).fill();
}
