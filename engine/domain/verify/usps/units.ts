// Secondary unit designators (Pub 28 Appendix C2) plus the private mailbox designator.

interface UnitDesignator {
  readonly abbreviation: string;
  /** Designators such as REAR or PH are complete without a number. */
  readonly needsNumber: boolean;
  readonly spellings: readonly string[];
}

const DESIGNATORS: readonly UnitDesignator[] = [
  { abbreviation: 'APT', needsNumber: true, spellings: ['APARTMENT', 'APT', 'APTMT', 'APRT'] },
  { abbreviation: 'BSMT', needsNumber: false, spellings: ['BASEMENT', 'BSMT'] },
  { abbreviation: 'BLDG', needsNumber: true, spellings: ['BUILDING', 'BLDG', 'BLDNG', 'BLD'] },
  { abbreviation: 'DEPT', needsNumber: true, spellings: ['DEPARTMENT', 'DEPT', 'DPT'] },
  { abbreviation: 'FL', needsNumber: true, spellings: ['FLOOR', 'FL', 'FLR'] },
  { abbreviation: 'FRNT', needsNumber: false, spellings: ['FRONT', 'FRNT'] },
  { abbreviation: 'HNGR', needsNumber: true, spellings: ['HANGAR', 'HANGER', 'HNGR'] },
  { abbreviation: 'KEY', needsNumber: true, spellings: ['KEY'] },
  { abbreviation: 'LBBY', needsNumber: false, spellings: ['LOBBY', 'LBBY'] },
  { abbreviation: 'LOT', needsNumber: true, spellings: ['LOT'] },
  { abbreviation: 'LOWR', needsNumber: false, spellings: ['LOWER', 'LOWR'] },
  { abbreviation: 'OFC', needsNumber: false, spellings: ['OFFICE', 'OFC'] },
  { abbreviation: 'PH', needsNumber: false, spellings: ['PENTHOUSE', 'PH'] },
  { abbreviation: 'PIER', needsNumber: true, spellings: ['PIER'] },
  { abbreviation: 'REAR', needsNumber: false, spellings: ['REAR'] },
  { abbreviation: 'RM', needsNumber: true, spellings: ['ROOM', 'RM'] },
  { abbreviation: 'SIDE', needsNumber: false, spellings: ['SIDE'] },
  { abbreviation: 'SLIP', needsNumber: true, spellings: ['SLIP'] },
  { abbreviation: 'SPC', needsNumber: true, spellings: ['SPACE', 'SPC'] },
  { abbreviation: 'STOP', needsNumber: true, spellings: ['STOP'] },
  { abbreviation: 'STE', needsNumber: true, spellings: ['SUITE', 'STE', 'SUIT', 'SUI'] },
  { abbreviation: 'TRLR', needsNumber: true, spellings: ['TRAILER', 'TRLR'] },
  { abbreviation: 'UNIT', needsNumber: true, spellings: ['UNIT'] },
  { abbreviation: 'UPPR', needsNumber: false, spellings: ['UPPER', 'UPPR'] },
  // Pub 28: when the designator is unknown, '#' stands in, always followed by a number.
  { abbreviation: '#', needsNumber: true, spellings: ['#', 'NO', 'NUM', 'NUMBER'] },
];

const BY_SPELLING = new Map<string, UnitDesignator>();
for (const d of DESIGNATORS) for (const s of d.spellings) BY_SPELLING.set(s, d);

/** Standard designator for a word ("SUITE" -> "STE"), or undefined. */
export function unitDesignator(word: string): string | undefined {
  return BY_SPELLING.get(word)?.abbreviation;
}

/** Whether the standard designator must be followed by a number. */
export function unitNeedsNumber(abbreviation: string): boolean {
  return BY_SPELLING.get(abbreviation)?.needsNumber ?? true;
}

const PMB_SPELLINGS = new Set(['PMB']);

/** "PMB" and "PRIVATE MAILBOX" (two words) both mean a private mailbox; returns words used. */
export function pmbWords(words: readonly string[], at: number): number {
  if (PMB_SPELLINGS.has(words[at])) return 1;
  if (words[at] === 'PRIVATE' && (words[at + 1] === 'MAILBOX' || words[at + 1] === 'MAIL')) {
    return words[at + 1] === 'MAIL' && words[at + 2] === 'BOX' ? 3 : words[at + 1] === 'MAILBOX' ? 2 : 0;
  }
  return 0;
}
