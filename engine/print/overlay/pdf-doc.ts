// One pdfkit document drawn in memory: pages at exact sizes in points, no margins, standard fonts
// only (nothing to embed, nothing read from disk but pdfkit's own metrics).
import { pdfKit } from '../../base/packages';

export type Doc = PDFKit.PDFDocument;

export const PT = 72;

/** A whole PDF in memory: `draw` adds its pages (`addPage`) and draws on them. */
export async function drawPdf(draw: (doc: Doc) => void): Promise<Uint8Array> {
  const doc = new (pdfKit())({ autoFirstPage: false, margin: 0, compress: true, info: { Producer: 'printpost' } });
  const chunks: Buffer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  draw(doc);
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}

/** A page of `width` x `height` inches. */
export function addPage(doc: Doc, width: number, height: number): void {
  doc.addPage({ size: [width * PT, height * PT], margin: 0 });
}

/** Text that never wraps nor moves pdfkit's cursor onto a new page. */
export function line(doc: Doc, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions = {}): void {
  doc.text(text, x, y, { lineBreak: false, ...options });
}

/** Largest size up to `max` at which every line fits `width` points. */
export function fitSize(doc: Doc, lines: string[], width: number, max: number, font = 'Helvetica'): number {
  doc.font(font).fontSize(1);
  const widest = Math.max(1e-6, ...lines.map((l) => doc.widthOfString(l)));
  return Math.min(max, width / widest);
}
