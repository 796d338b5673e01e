// What makes a test piece visibly not mailable: postcards, self mailers and snap packs say SAMPLE in
// their indicia (address-block.ts); a letter carries SAMPLE - NOT MAILABLE across its address page
// (the envelope's window shows part of it), and a check VOID across its face, its MICR line masked.
// Translucent, so a proof still shows the design under it.
import type { Zone } from '../../catalog/products';
import { type Doc, fitSize, line, PT } from './pdf-doc';

export const SAMPLE_TEXT = 'SAMPLE - NOT MAILABLE';
export const VOID_TEXT = 'VOID';

/** `text` centred on `zone` (inches), turned by `angle` degrees, as large as `share` of the zone's width allows. */
function across(doc: Doc, zone: Zone, text: string, angle: number, share: number, maxSize: number): void {
  const cx = (zone.x + zone.width / 2) * PT;
  const cy = (zone.y + zone.height / 2) * PT;
  const size = fitSize(doc, [text], zone.width * PT * share, maxSize, 'Helvetica-Bold');
  doc.save();
  doc.rotate(angle, { origin: [cx, cy] });
  doc.fillColor('#808080').fillOpacity(0.45).font('Helvetica-Bold').fontSize(size);
  line(doc, text, cx - doc.widthOfString(text) / 2, cy - size / 2);
  doc.restore();
}

/** SAMPLE - NOT MAILABLE across a letter's page of `width` x `height` inches. */
export function drawSampleMark(doc: Doc, width: number, height: number): void {
  across(doc, { x: 0, y: 0, width, height }, SAMPLE_TEXT, -35, 0.85, 72);
}

/** VOID across a check's face (inches). */
export function drawVoid(doc: Doc, face: Zone): void {
  across(doc, face, VOID_TEXT, -12, 0.5, 140);
}
