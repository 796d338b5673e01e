// Directionals (Pub 28 section 233, Appendix B). English only.

const DIRECTIONALS: Readonly<Record<string, string>> = {
  NORTH: 'N',
  SOUTH: 'S',
  EAST: 'E',
  WEST: 'W',
  NORTHEAST: 'NE',
  NORTHWEST: 'NW',
  SOUTHEAST: 'SE',
  SOUTHWEST: 'SW',
  N: 'N',
  S: 'S',
  E: 'E',
  W: 'W',
  NE: 'NE',
  NW: 'NW',
  SE: 'SE',
  SW: 'SW',
};

/** Standard abbreviation for a directional word, or undefined. */
export function directional(word: string): string | undefined {
  return DIRECTIONALS[word];
}

/** True for the one- and two-letter forms only ("N", "NW"), which rarely start a city name. */
export function isAbbreviatedDirectional(word: string): boolean {
  return word.length <= 2 && DIRECTIONALS[word] !== undefined;
}
