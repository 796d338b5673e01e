// A decoder for the USPS Intelligent Mail barcode, written from USPS-B-3200 so tests can read back
// what the overlay printed without trusting the encoder that made it: bars -> ten 13-bit characters
// (bar-to-character table) -> codewords (5-of-13 / 2-of-13 tables) -> a 102-bit number -> tracking
// and routing, with the 11-bit CRC frame check verified.

export interface DecodedImb {
  /** 20 digits: barcode id, service type, mailer id, serial */
  tracking: string;
  /** '', or 5, 9 or 11 digits */
  routing: string;
}

// USPS-B-3200 bar-to-character table: for bar 1..65, the descender's (character, bit) then the
// ascender's. Characters A..J are 0..9.
// prettier-ignore
const BAR_MAP: readonly (readonly [number, number, number, number])[] = [
  [7, 2, 4, 3], [1, 10, 0, 0], [9, 12, 2, 8], [5, 5, 6, 11], [8, 9, 3, 1],
  [0, 1, 5, 12], [2, 5, 1, 8], [4, 4, 9, 11], [6, 3, 8, 10], [3, 9, 7, 6],
  [5, 11, 1, 4], [8, 5, 2, 12], [9, 10, 0, 2], [7, 1, 6, 7], [3, 6, 4, 9],
  [0, 3, 8, 6], [6, 4, 2, 7], [1, 1, 9, 9], [7, 10, 5, 2], [4, 0, 3, 8],
  [6, 2, 0, 4], [8, 11, 1, 0], [9, 8, 3, 12], [2, 6, 7, 7], [5, 1, 4, 10],
  [1, 12, 6, 9], [7, 3, 8, 0], [5, 8, 9, 7], [4, 6, 2, 10], [3, 4, 0, 5],
  [8, 4, 5, 7], [7, 11, 1, 9], [6, 0, 9, 6], [0, 6, 4, 8], [2, 1, 3, 2],
  [5, 9, 8, 12], [4, 11, 6, 1], [9, 5, 7, 4], [3, 3, 1, 2], [0, 7, 2, 0],
  [1, 3, 4, 1], [6, 10, 3, 5], [8, 7, 9, 4], [2, 11, 5, 6], [0, 8, 7, 12],
  [4, 2, 8, 1], [5, 10, 3, 0], [9, 3, 0, 9], [6, 5, 2, 4], [7, 8, 1, 7],
  [5, 0, 4, 5], [2, 3, 0, 10], [6, 12, 9, 2], [3, 11, 1, 6], [8, 8, 7, 9],
  [5, 4, 0, 11], [1, 5, 2, 2], [9, 1, 4, 12], [8, 3, 6, 6], [7, 0, 3, 7],
  [4, 7, 7, 5], [0, 12, 1, 11], [2, 9, 9, 0], [6, 8, 5, 3], [3, 10, 8, 2],
];

const popcount = (n: number) => {
  let c = 0;
  for (let v = n; v; v >>= 1) c += v & 1;
  return c;
};
const reverse13 = (n: number) => {
  let r = 0;
  for (let i = 0; i < 13; i++) if (n & (1 << i)) r |= 1 << (12 - i);
  return r;
};

/** The N-of-13 table: pairs of mirror images from the front, palindromes from the back. */
function nOf13(n: number, length: number): number[] {
  const table = new Array<number>(length);
  let lower = 0;
  let upper = length - 1;
  for (let value = 0; value < 8192; value++) {
    if (popcount(value) !== n) continue;
    const mirror = reverse13(value);
    if (mirror < value) continue;
    if (mirror === value) table[upper--] = value;
    else {
      table[lower++] = value;
      table[lower++] = mirror;
    }
  }
  return table;
}

// character -> codeword: 5-of-13 characters are codewords 0..1286, 2-of-13 ones 1287..1364.
const CODEWORD = new Map<number, number>();
nOf13(5, 1287).forEach((c, i) => CODEWORD.set(c, i));
nOf13(2, 78).forEach((c, i) => CODEWORD.set(c, 1287 + i));

/** The 11-bit frame check sequence over the 102 data bits, most significant first (poly 0xF35). */
export function imbCrc(data: bigint): number {
  let fcs = 0x7ff;
  for (let bit = 101; bit >= 0; bit--) {
    const inBit = Number((data >> BigInt(bit)) & 1n);
    const top = ((fcs >> 10) & 1) ^ inBit;
    fcs = ((fcs << 1) ^ (top ? 0xf35 : 0)) & 0x7ff;
  }
  return fcs;
}

/** Decodes 65 bars ('F', 'A', 'D', 'T'); throws on a malformed symbol or a failed frame check. */
export function decodeImb(bars: string): DecodedImb {
  if (!/^[FADT]{65}$/.test(bars)) throw new Error(`an IMb has 65 bars of F, A, D, T: ${bars}`);
  const chars = new Array<number>(10).fill(0);
  BAR_MAP.forEach(([dChar, dBit, aChar, aBit], i) => {
    const bar = bars[i];
    if (bar === 'F' || bar === 'D') chars[dChar] |= 1 << dBit;
    if (bar === 'F' || bar === 'A') chars[aChar] |= 1 << aBit;
  });
  // A character printed inverted carries a 1 in the frame check; 8 and 11 bits set mean inverted.
  let fcs = 0;
  const codewords = chars.map((c, i) => {
    let value = c;
    if (popcount(value) === 8 || popcount(value) === 11) {
      value ^= 0x1fff;
      fcs |= 1 << i;
    }
    const codeword = CODEWORD.get(value);
    if (codeword === undefined) throw new Error(`character ${'ABCDEFGHIJ'[i]} is not a valid IMb character`);
    return codeword;
  });
  if (codewords[0] >= 659) {
    codewords[0] -= 659;
    fcs |= 1 << 10;
  }
  if (codewords[9] % 2 !== 0) throw new Error('codeword J is odd: the barcode is upside down or damaged');
  codewords[9] /= 2;
  if (codewords[9] >= 636) throw new Error('codeword J is out of range');

  let data = BigInt(codewords[0]);
  for (let i = 1; i < 9; i++) data = data * 1365n + BigInt(codewords[i]);
  data = data * 636n + BigInt(codewords[9]);
  if (imbCrc(data) !== fcs) throw new Error('IMb frame check failed');

  let tracking = '';
  for (let i = 0; i < 18; i++) {
    tracking = String(data % 10n) + tracking;
    data /= 10n;
  }
  tracking = String(data % 5n) + tracking;
  data /= 5n;
  tracking = String(data % 10n) + tracking;
  data /= 10n;
  return { tracking, routing: routingOf(data) };
}

/** Routing codes of each length are stacked one range above the other (0, then 5, 9, 11 digits). */
function routingOf(value: bigint): string {
  if (value === 0n) return '';
  if (value <= 100_000n) return String(value - 1n).padStart(5, '0');
  if (value <= 1_000_100_000n) return String(value - 100_001n).padStart(9, '0');
  const eleven = value - 1_000_100_001n;
  if (eleven >= 100_000_000_000n) throw new Error('IMb routing code out of range');
  return String(eleven).padStart(11, '0');
}

/** A drawn bar: its box in any top-down coordinates (pdf-read's shapes fit). */
export interface BarBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Reads bars back from their drawn boxes, left to right: a bar reaching both the symbol's top and
 * bottom is full, one reaching only the top an ascender, only the bottom a descender, neither the
 * tracker. Boxes should be the symbol's bars only (say, the thin black rectangles of one zone).
 */
export function barsFromBoxes(boxes: BarBox[], tolerance = 0.3): string {
  const sorted = [...boxes].sort((a, b) => a.left - b.left);
  const top = Math.min(...sorted.map((b) => b.top));
  const bottom = Math.max(...sorted.map((b) => b.top + b.height));
  return sorted
    .map((b) => {
      const up = b.top - top < tolerance;
      const down = bottom - (b.top + b.height) < tolerance;
      return up && down ? 'F' : up ? 'A' : down ? 'D' : 'T';
    })
    .join('');
}
