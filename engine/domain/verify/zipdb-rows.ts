// Reads the rows of the ZIP database's JSON text in place, as bytes: a string is made once per
// distinct value (the file repeats its states, counties and cities tens of thousands of times) and a
// number without a string, so loading the file leaves next to no garbage behind (JSON.parse of the
// whole text left about 60 MB of it, which V8 kept as resident memory).

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const NULL = [0x6e, 0x75, 0x6c, 0x6c];

/** A row is not what the reader expects: the loader names the file. */
export class MalformedRows extends Error {
  constructor(
    message: string,
    readonly row: number,
  ) {
    super(message);
  }
}

export interface Spans {
  /** the top-level `rows` array, from its `[` to its `]` inclusive; -1 when there is none */
  from: number;
  to: number;
  /** where each row (an array in `rows`) starts */
  rows: number[];
}

/** Finds the top-level `rows` array and its rows by bracket depth, outside strings. */
export function spans(text: Buffer): Spans {
  const out: Spans = { from: -1, to: -1, rows: [] };
  let depth = 0;
  let key = -1; // the last string seen at depth 1: a key when an array follows it
  let keyEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) {
      const start = i;
      for (i++; i < text.length && text[i] !== QUOTE; i++) if (text[i] === BACKSLASH) i++;
      if (depth === 1) {
        key = start;
        keyEnd = i;
      }
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth++;
      if (depth === 2 && c === OPEN_ARRAY && out.from < 0 && key >= 0) {
        const isRows =
          text.toString('latin1', key, keyEnd + 1) === '"rows"' &&
          text.toString('latin1', keyEnd + 1, i).trim() === ':';
        if (isRows) out.from = i;
      } else if (depth === 3 && c === OPEN_ARRAY && out.from >= 0 && out.to < 0) out.rows.push(i);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
      if (depth === 1 && out.from >= 0 && out.to < 0) out.to = i;
    }
  }
  return out;
}

/** Distinct strings of the text, each made once and numbered in order of first appearance. */
export class StringTable {
  readonly strings: string[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  /** open addressing: string number, or -1 */
  private slots = new Int32Array(1 << 12).fill(-1);

  constructor(private readonly text: Buffer) {}

  /** The number of the JSON string whose bytes between the quotes are text[start, end). */
  numberOf(start: number, end: number, escaped: boolean): number {
    const text = this.text;
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text[i], 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const known = this.slots[slot];
      if (known < 0) return this.add(slot, start, end, escaped);
      if (this.ends[known] - this.starts[known] === end - start && this.same(known, start, end)) return known;
    }
  }

  private same(known: number, start: number, end: number): boolean {
    const text = this.text;
    for (let a = this.starts[known], b = start; b < end; a++, b++) if (text[a] !== text[b]) return false;
    return true;
  }

  private add(slot: number, start: number, end: number, escaped: boolean): number {
    const n = this.strings.length;
    const value: unknown = escaped
      ? JSON.parse(this.text.toString('utf8', start - 1, end + 1))
      : this.text.toString('utf8', start, end);
    if (typeof value !== 'string') throw new Error(`not a JSON string: ${this.text.toString('utf8', start, end)}`);
    this.strings.push(value);
    this.starts.push(start);
    this.ends.push(end);
    this.slots[slot] = n;
    if (2 * this.strings.length > this.slots.length) this.grow();
    return n;
  }

  private grow(): void {
    this.slots = new Int32Array(2 * this.slots.length).fill(-1);
    const mask = this.slots.length - 1;
    const text = this.text;
    for (let n = 0; n < this.strings.length; n++) {
      let hash = 0x811c9dc5;
      for (let i = this.starts[n]; i < this.ends[n]; i++) hash = Math.imul(hash ^ text[i], 0x01000193);
      let slot = hash & mask;
      while (this.slots[slot] >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = n;
    }
  }
}

/** Reads one row's values in order; each read ends past the value and the whitespace after it. */
export class RowReader {
  private at = 0;
  private row = 0;

  constructor(
    private readonly text: Buffer,
    private readonly strings: StringTable,
  ) {}

  /** Starts row number `row` at its `[`. */
  begin(at: number, row: number): void {
    this.row = row;
    this.at = at + 1;
    this.space();
  }

  /** Past the comma before the next value: true; at the row's `]`: false. */
  more(): boolean {
    const c = this.text[this.at];
    if (c === CLOSE_ARRAY) return false;
    if (c !== COMMA) throw this.malformed('expected , or ]');
    this.at++;
    this.space();
    return true;
  }

  /** Past a comma that must be there (a value follows). */
  next(): void {
    if (!this.more()) throw this.malformed('row too short');
  }

  /** A string's number in the string table. */
  string(): number {
    const text = this.text;
    if (text[this.at] !== QUOTE) throw this.malformed('expected a string');
    const start = this.at + 1;
    let escaped = false;
    let i = start;
    for (; i < text.length && text[i] !== QUOTE; i++)
      if (text[i] === BACKSLASH) {
        escaped = true;
        i++;
      }
    if (i >= text.length) throw this.malformed('unterminated string');
    this.at = i + 1;
    this.space();
    return this.strings.numberOf(start, i, escaped);
  }

  /** A string of exactly five digits as its number, -1 for any other string. */
  fiveDigits(): number {
    const text = this.text;
    const at = this.at;
    let value = 0;
    for (let i = at + 1; i < at + 6; i++) {
      const c = text[i];
      if (c < ZERO || c > NINE) return this.skipString();
      value = 10 * value + (c - ZERO);
    }
    if (text[at] !== QUOTE || text[at + 6] !== QUOTE) return this.skipString();
    this.at = at + 7;
    this.space();
    return value;
  }

  private skipString(): number {
    this.string();
    return -1;
  }

  /** A number, or NaN for null. */
  number(): number {
    const text = this.text;
    const start = this.at;
    if (
      text[start] === NULL[0] &&
      text[start + 1] === NULL[1] &&
      text[start + 2] === NULL[2] &&
      text[start + 3] === NULL[3]
    ) {
      this.at += 4;
      this.space();
      return NaN;
    }
    // plain decimals (all the file has) without a string: digits / 10^decimals is the double JSON.parse
    // gives, both being exact below 2^53 and 10^22 and the division correctly rounded
    let i = start;
    const negative = text[i] === MINUS;
    if (negative) i++;
    let digits = 0;
    let mantissa = 0;
    let decimals = -1;
    for (; i < text.length; i++) {
      const c = text[i];
      if (c >= ZERO && c <= NINE) {
        mantissa = 10 * mantissa + (c - ZERO);
        digits++;
        if (decimals >= 0) decimals++;
      } else if (c === DOT && decimals < 0) decimals = 0;
      else break;
    }
    const end = this.endOfValue(i);
    let value: unknown;
    if (end === i && digits > 0 && digits <= 15 && decimals !== 0) {
      const magnitude = mantissa / 10 ** Math.max(0, decimals);
      value = negative ? -magnitude : magnitude;
    } else value = JSON.parse(text.toString('latin1', start, end));
    if (typeof value !== 'number') throw this.malformed('not a number');
    this.at = end;
    this.space();
    return value;
  }

  /** Where the value that runs on from `i` ends: at whitespace, a comma or the row's end. */
  private endOfValue(i: number): number {
    const text = this.text;
    while (i < text.length && text[i] !== COMMA && text[i] !== CLOSE_ARRAY && text[i] > 0x20) i++;
    return i;
  }

  private malformed(why: string): MalformedRows {
    return new MalformedRows(why, this.row);
  }

  private space(): void {
    const text = this.text;
    while (this.at < text.length && text[this.at] <= 0x20) this.at++;
  }
}
