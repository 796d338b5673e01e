// `case=proper`: "PO BOX 720114" -> "PO Box 720114", "SAN FRANCISCO CA 94172-0114" -> "San Francisco CA 94172-0114".
export type LetterCase = 'upper' | 'proper';

// Tokens that stay upper case in proper case: directionals, PO, military and route prefixes, states.
const KEEP_UPPER = new Set([
  'N',
  'S',
  'E',
  'W',
  'NE',
  'NW',
  'SE',
  'SW',
  'PO',
  'PSC',
  'CMR',
  'APO',
  'FPO',
  'DPO',
  'RR',
  'HC',
  'USS',
  'USNS',
  'URB',
  'PMB',
]);

function properWord(word: string, isLast: boolean, lastLine: boolean): string {
  if (KEEP_UPPER.has(word)) return word;
  // "CA" before the ZIP in a last line is the state code.
  if (lastLine && isLast && /^[A-Z]{2}$/.test(word)) return word;
  if (/\d/.test(word)) return /^\d+(ST|ND|RD|TH)$/.test(word) ? word.toLowerCase() : word;
  return word.toLowerCase().replace(/(^|[-'’/])([a-z])/g, (_, sep: string, c: string) => sep + c.toUpperCase());
}

/** Proper-cases an upper-case line; `lastLine` keeps the state code before the ZIP upper case. */
export function properCase(line: string, lastLine = false): string {
  const words = line.split(' ');
  const zipAt = lastLine ? words.findIndex((w) => /^\d{5}(-\d{4})?$/.test(w)) : -1;
  const stateAt = zipAt > 0 ? zipAt - 1 : lastLine ? words.length - 1 : -1;
  return words.map((w, i) => properWord(w, i === stateAt, lastLine)).join(' ');
}

export function applyCase(line: string, letterCase: LetterCase | undefined, lastLine = false): string {
  return letterCase === 'proper' ? properCase(line, lastLine) : line;
}
