// The comparison key of a city name, shared by the ZIP database's index (zipdb-tables.ts) and its
// lookups (zipdb.ts).
const TOKEN_EQUIVALENTS: Readonly<Record<string, string>> = {
  SAINT: 'ST',
  STE: 'ST',
  SAINTE: 'ST',
  FORT: 'FT',
  MOUNT: 'MT',
  MOUNTAIN: 'MTN',
};
const EQUIVALENT_WORD = /\b(?:SAINTE?|STE|FORT|MOUNT(?:AIN)?)\b/;

/** Comparison key: no diacritics, case, spaces or punctuation; SAINT/ST, FORT/FT, MOUNT/MT unified. */
export function normalizeCity(s: string): string {
  const plain = /^[A-Z0-9 ]*$/.test(s); // fast path for the database's own upper-case ASCII names
  // most of them have no word to replace: the key is the name without its spaces (one string made,
  // where splitting made an array and a string per word for each of the database's 19,000 names)
  if (plain && !EQUIVALENT_WORD.test(s)) return s.replaceAll(' ', '');
  const tokens = (
    plain
      ? s
      : s
          .normalize('NFD')
          .replace(/[\u0300-\u036f]/g, '')
          .toUpperCase()
          .replace(/['’`]/g, '')
  )
    .split(/[^A-Z0-9]+/)
    .filter((t) => t.length > 0);
  return tokens.map((t) => (Object.hasOwn(TOKEN_EQUIVALENTS, t) ? TOKEN_EQUIVALENTS[t] : t)).join('');
}
