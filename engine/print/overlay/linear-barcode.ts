// One-dimensional barcodes (GS1-128, Code 128) as vector bars: bwip-js encodes, giving the widths of
// alternating bars and spaces in modules; the rectangles are drawn here at the module width asked.
import { bwipJs } from '../../base/packages';
import { type Doc } from './pdf-doc';

/** Bar and space widths in modules, starting with a bar. */
export function barPattern(encoder: 'gs1-128' | 'code128', text: string): number[] {
  const [symbol] = bwipJs().raw(encoder, text, {});
  if (!symbol || !('sbs' in symbol)) throw new Error(`bwip-js gave no linear symbol for ${encoder}`);
  return symbol.sbs;
}

/** Total width in modules, quiet zones excluded. */
export const patternModules = (pattern: number[]): number => pattern.reduce((sum, w) => sum + w, 0);

/** Draws the bars with the top-left corner at (x, y) points; `module` and `height` in points. */
export function drawLinearBarcode(doc: Doc, pattern: number[], x: number, y: number, module: number, height: number) {
  let at = x;
  doc.save();
  pattern.forEach((width, i) => {
    if (i % 2 === 0) doc.rect(at, y, width * module, height);
    at += width * module;
  });
  doc.fillColor('black').fill();
  doc.restore();
}
