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

/**
 * Whether a directional right after a suffix is its postdirectional rather than the first word
 * of the city: the short forms (N, NW) and the compound words (NORTHWEST) are; NORTH, SOUTH,
 * EAST and WEST start too many city names (WEST PALM BEACH, NORTH LAS VEGAS).
 */
export function isLikelyPostdirectional(word: string): boolean {
  const abbr = DIRECTIONALS[word];
  return abbr !== undefined && (word.length <= 2 || abbr.length === 2);
}
