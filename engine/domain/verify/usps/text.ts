// Turns free text into upper-case words. Pub 28 allows no punctuation on the delivery line
// except the hyphen of a house or unit number and the slash of a fraction, so everything
// else is dropped here; commas survive only as a marker between words.

export interface Word {
  readonly text: string;
  /** A comma (or line break) followed this word in the input. */
  readonly comma: boolean;
}

const FRACTIONS: Readonly<Record<string, string>> = { '½': ' 1/2', '¼': ' 1/4', '¾': ' 3/4', '⅓': ' 1/3' };

// Designators people glue to their number ("APT4", "STE200", "RR2", "BOX123").
const GLUED =
  /^(APT|STE|SUITE|UNIT|RM|ROOM|BLDG|FL|LOT|SPC|TRLR|PMB|BOX|POB|POBOX|RR|HC|HCR|PSC|CMR|RFD)(\d[A-Z0-9-]*)$/;

const ALREADY_CLEAN = /^[A-Z0-9 ]*$/;

/** Upper case, no accents, no punctuation but ',', '#', '-' and '/'. */
function cleanText(input: string): string {
  // Most calls see text that is already clean (re-formatting parsed parts): skip the passes.
  if (ALREADY_CLEAN.test(input)) return input;
  return (
    input
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[½¼¾⅓]/g, (f) => FRACTIONS[f] ?? ' ')
      .toUpperCase()
      .replace(/[\r\n;]+/g, ',')
      .replace(/#/g, ' # ')
      .replace(/([A-Z]{2,})\.(?=[A-Z])/g, '$1 ') // "ST.LOUIS" is two words, "P.O." is one
      .replace(/\./g, '')
      // A single letter before an apostrophe is its own word (O'FALLON, COEUR D'ALENE -> USPS
      // "O FALLON", "COEUR D ALENE"); elsewhere the apostrophe just goes (MACY'S -> MACYS).
      .replace(/\b([A-Z])['’‘`](?=[A-Z])/g, '$1 ')
      .replace(/['’‘`]/g, '')
      .replace(/(?<!\d)\/|\/(?!\d)/g, ' ')
      .replace(/[^A-Z0-9 ,#/-]+/g, ' ')
  );
}

function splitWord(raw: string): string[] {
  if (raw === '') return [];
  // Hot path: a plain word (no hyphen) is itself, unless a designator is glued to its number.
  if (!raw.includes('-')) return /^\d/.test(raw) || (!/\d/.test(raw) && raw !== 'POBOX') ? [raw] : splitGlued(raw);
  let w = raw.replace(/^-+|-+$/g, '');
  if (w === '') return [];
  // Hyphens belong to numbers ("12-34", "62701-1234"); between letters they separate words.
  if (!/^\d/.test(w))
    return w
      .split('-')
      .filter((p) => p !== '')
      .flatMap(splitGlued);
  w = w.replace(/-{2,}/g, '-');
  return [w];
}

function splitGlued(w: string): string[] {
  if (w === 'POBOX') return ['PO', 'BOX'];
  const m = GLUED.exec(w);
  if (!m) return [w];
  const head = m[1] === 'POBOX' ? ['PO', 'BOX'] : [m[1]];
  return [...head, m[2]];
}

/** Words of a line, each remembering whether a comma followed it. */
export function words(input: string | null | undefined): Word[] {
  if (!input || input.trim() === '') return [];
  const out: Word[] = [];
  for (const chunk of cleanText(input).split(',')) {
    const before = out.length;
    // cleanText leaves single spaces and commas as the only separators.
    for (const raw of chunk.split(' ')) {
      if (raw === '') continue;
      for (const text of splitWord(raw)) out.push({ text, comma: false });
    }
    if (out.length > before) out[out.length - 1] = { text: out[out.length - 1].text, comma: true };
  }
  if (out.length > 0) out[out.length - 1] = { text: out[out.length - 1].text, comma: false };
  return out;
}

/** Words of a line without the comma markers. */
export function plainWords(input: string | null | undefined): string[] {
  return words(input).map((w) => w.text);
}

/** Normalized free text: what Pub 28 leaves of a line it cannot interpret. */
export function cleanLine(input: string | null | undefined): string {
  return plainWords(input).join(' ');
}

export function isHouseNumber(w: string): boolean {
  if (/^\d+(ST|ND|RD|TH)$/.test(w)) return false; // "5TH" is a street name
  return /^\d[0-9A-Z]*(-[0-9A-Z]+)*$/.test(w) || /^[NSEW]\d+[NSEW]\d+$/.test(w);
}

export function isFraction(w: string): boolean {
  return /^\d+\/\d+$/.test(w);
}

/** A word that can follow a unit designator: has a digit ("4", "12B", "3-A") or is one letter. */
export function isUnitNumber(w: string | undefined): w is string {
  if (w === undefined || w.length > 10) return false;
  return /^[A-Z]$/.test(w) || (/\d/.test(w) && /^[A-Z0-9][A-Z0-9-]*$/.test(w));
}
