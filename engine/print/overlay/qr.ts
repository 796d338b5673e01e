// A QR code (qr_code) as vector squares: bwip-js encodes the text into its module matrix, pdfkit
// fills one rectangle per dark run, so the code stays sharp at any print resolution. The square of
// `width` inches holds the code and its quiet zone, on the code's own background.
import { bwipJs } from '../../base/packages';
import { type Doc, PT } from './pdf-doc';

/** Quiet zone on each side, in modules (ISO/IEC 18004 asks for four). */
const QUIET = 4;

export interface QrMark {
  text: string;
  /** top-left corner and side, inches */
  x: number;
  y: number;
  width: number;
  background?: string;
  foreground?: string;
}

/** The code's modules, row by row (true = dark); error correction M, as print codes usually use. */
export function qrModules(text: string): boolean[][] {
  const [symbol] = bwipJs().raw('qrcode', text, 'eclevel=M');
  if (!symbol || !('pixs' in symbol)) throw new Error('bwip-js gave no QR matrix');
  const { pixs, pixx, pixy } = symbol;
  return Array.from({ length: pixy }, (_, row) =>
    Array.from({ length: pixx }, (_, col) => pixs[row * pixx + col] === 1),
  );
}

export function drawQr(doc: Doc, mark: QrMark): void {
  const modules = qrModules(mark.text);
  const size = mark.width * PT;
  const unit = size / (modules.length + 2 * QUIET);
  const x0 = mark.x * PT;
  const y0 = mark.y * PT;
  doc.save();
  doc
    .rect(x0, y0, size, size)
    .fillColor(mark.background ?? '#FFFFFF')
    .fill();
  doc.fillColor(mark.foreground ?? '#000000');
  modules.forEach((row, r) => {
    let c = 0;
    while (c < row.length) {
      if (!row[c]) {
        c++;
        continue;
      }
      const start = c;
      while (c < row.length && row[c]) c++;
      doc.rect(x0 + (QUIET + start) * unit, y0 + (QUIET + r) * unit, (c - start) * unit, unit);
    }
  });
  doc.fill();
  doc.restore();
}
