// E-13B MICR, drawn as vector shapes: no E-13B font ships on npm, and a font would be the customer's
// problem to embed anyway. Each glyph is a group of filled rectangles on the E-13B design grid
// (7 x 9 units of 0.013 in, so the 0.091 x 0.117 in character cell) at 8 characters per inch. The
// shapes keep E-13B's character (thick vertical strokes, thin joins, the four symbols as bar groups)
// without claiming to be the ANSI outlines, so they suit proofs and human-readable prints; a reader
// sorter needs genuine E-13B in magnetic toner, which the print shop's check printer applies.
import { type Doc, line, PT } from './pdf-doc';

type Rect = readonly [x: number, y: number, w: number, h: number];

/** The four symbols, as code points; their ASCII stand-ins follow the check industry's A/B/C/D. */
export const TRANSIT = '\u2446';
export const AMOUNT = '\u2447';
export const ON_US = '\u2448';
export const DASH = '\u2449';
const ASCII: Record<string, string> = { [TRANSIT]: 'A', [AMOUNT]: 'B', [ON_US]: 'C', [DASH]: 'D' };

// prettier-ignore
const GLYPHS: Record<string, readonly Rect[]> = {
  '0': [[1, 0, 5, 1], [1, 8, 5, 1], [1, 0, 2, 9], [4, 0, 2, 9]],
  '1': [[3, 0, 2, 9], [1, 0, 2, 1], [1, 7, 5, 2]],
  '2': [[1, 0, 5, 1], [4, 0, 2, 4], [1, 4, 5, 1], [1, 4, 2, 5], [1, 7, 5, 2]],
  '3': [[1, 0, 4, 1], [4, 0, 1, 4], [2, 4, 4, 1], [4, 4, 2, 5], [1, 8, 5, 1]],
  '4': [[1, 0, 2, 5], [1, 5, 5, 2], [4, 2, 2, 7]],
  '5': [[1, 0, 5, 1], [1, 0, 1, 4], [1, 4, 5, 1], [4, 4, 2, 5], [1, 8, 5, 1]],
  '6': [[1, 0, 4, 1], [1, 0, 2, 9], [1, 4, 5, 1], [4, 4, 2, 5], [1, 8, 5, 1]],
  '7': [[1, 0, 5, 1], [5, 0, 1, 4], [3, 4, 3, 1], [3, 4, 2, 5]],
  '8': [[2, 0, 3, 1], [2, 0, 1, 4], [4, 0, 1, 4], [1, 4, 5, 1], [1, 4, 2, 5], [4, 4, 2, 5], [1, 8, 5, 1]],
  '9': [[1, 0, 5, 1], [1, 0, 1, 5], [4, 0, 2, 9], [1, 4, 5, 1], [3, 8, 3, 1]],
  [TRANSIT]: [[0, 0, 2, 9], [4, 0, 3, 3], [4, 6, 3, 3]],
  [AMOUNT]: [[0, 5, 2, 3], [3, 0, 1, 9], [5, 1, 2, 3]],
  [ON_US]: [[0, 0, 2, 6], [3, 0, 1, 6], [5, 5, 2, 2]],
  [DASH]: [[0, 3, 3, 3], [4, 3, 3, 3]],
};

export const MICR_UNIT = 0.013; // inches
export const MICR_PITCH = 0.125; // 8 characters per inch
export const MICR_HEIGHT = 9 * MICR_UNIT; // 0.117 in

/** The glyphs E-13B has: digits, the four symbols, and space. */
export const isMicrChar = (c: string): boolean => c === ' ' || c in GLYPHS;

/** Draws one glyph in its cell, top-left at (x, y) points. Each glyph is one filled path. */
export function drawMicrGlyph(doc: Doc, char: string, x: number, y: number): void {
  const rects = GLYPHS[char];
  if (!rects) return;
  const u = MICR_UNIT * PT;
  for (const [rx, ry, w, h] of rects) doc.rect(x + rx * u, y + ry * u, w * u, h * u);
  doc.fillColor('black').fill();
}

/** The check's MICR fields, in the order and positions of ANSI X9.100-160 (right to left). */
export interface MicrFields {
  checkNumber: string;
  routing: string;
  account: string;
}

/**
 * The line as characters by position from the right edge: on-us field ending with its symbol in
 * position 14, transit symbols in 32 and 42 around the routing number, auxiliary on-us (the check
 * number of a business check) ending in 44. Positions 1 to 12 stay blank for the amount the bank of
 * first deposit encodes.
 */
export function micrPositions(fields: MicrFields): Map<number, string> {
  const at = new Map<number, string>();
  const place = (text: string, rightmost: number) =>
    [...text].reverse().forEach((c, i) => (c !== ' ' ? at.set(rightmost + i, c) : undefined));
  place(`${fields.account.slice(-17)}${ON_US}`, 14);
  place(`${TRANSIT}${fields.routing}${TRANSIT}`, 32);
  place(`${ON_US}${fields.checkNumber}${ON_US}`, 44);
  return at;
}

/** The compact line as printed left to right: ⑈check⑈ ⑆routing⑆ account⑈. */
export function micrText(fields: MicrFields): string {
  return `${ON_US}${fields.checkNumber}${ON_US} ${TRANSIT}${fields.routing}${TRANSIT} ${fields.account}${ON_US}`;
}

/** The same line in the ASCII stand-ins a text search or a screen reader can use. */
export function micrAscii(fields: MicrFields): string {
  return [...micrText(fields)].map((c) => ASCII[c] ?? c).join('');
}

/** Position p's right edge is 5/16 in + (p - 1) characters from the right edge of the document. */
const RIGHT_MARGIN = 5 / 16;

/**
 * Draws the MICR line of a document `width` inches wide whose bottom edge is at `bottom` points,
 * the glyphs' baseline 3/16 in above it, inside the clear band (the bottom 5/8 in). The same line is
 * written as invisible text (rendering mode 3) in ASCII, as check printers do for search and
 * accessibility; the visible marks stay the vector glyphs.
 */
export function drawMicrLine(doc: Doc, fields: MicrFields, width: number, bottom: number): void {
  const top = bottom - (3 / 16 + MICR_HEIGHT) * PT;
  const leftOf = (p: number) => (width - RIGHT_MARGIN - p * MICR_PITCH) * PT;
  const positions = micrPositions(fields);
  doc.save();
  for (const [p, c] of positions) drawMicrGlyph(doc, c, leftOf(p) + ((MICR_PITCH - 7 * MICR_UNIT) / 2) * PT, top);
  doc.restore();
  const first = Math.max(...positions.keys());
  // Tr is text state, part of the graphics state: set outside the text object, undone by restore.
  doc.save();
  doc.addContent('3 Tr');
  doc.font('Courier').fontSize(9);
  line(doc, micrAscii(fields), leftOf(first), top);
  doc.restore();
}
