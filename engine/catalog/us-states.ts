// USPS state, territory and military "state" codes (Pub 28 Appendix B).

export interface UsState {
  /** Two-letter USPS code. */
  readonly code: string;
  /** Upper-case name as USPS spells it. */
  readonly name: string;
  readonly kind: 'state' | 'district' | 'territory' | 'freely_associated' | 'military';
}

export const US_STATES: readonly UsState[] = [
  { code: 'AL', name: 'ALABAMA', kind: 'state' },
  { code: 'AK', name: 'ALASKA', kind: 'state' },
  { code: 'AZ', name: 'ARIZONA', kind: 'state' },
  { code: 'AR', name: 'ARKANSAS', kind: 'state' },
  { code: 'CA', name: 'CALIFORNIA', kind: 'state' },
  { code: 'CO', name: 'COLORADO', kind: 'state' },
  { code: 'CT', name: 'CONNECTICUT', kind: 'state' },
  { code: 'DE', name: 'DELAWARE', kind: 'state' },
  { code: 'DC', name: 'DISTRICT OF COLUMBIA', kind: 'district' },
  { code: 'FL', name: 'FLORIDA', kind: 'state' },
  { code: 'GA', name: 'GEORGIA', kind: 'state' },
  { code: 'HI', name: 'HAWAII', kind: 'state' },
  { code: 'ID', name: 'IDAHO', kind: 'state' },
  { code: 'IL', name: 'ILLINOIS', kind: 'state' },
  { code: 'IN', name: 'INDIANA', kind: 'state' },
  { code: 'IA', name: 'IOWA', kind: 'state' },
  { code: 'KS', name: 'KANSAS', kind: 'state' },
  { code: 'KY', name: 'KENTUCKY', kind: 'state' },
  { code: 'LA', name: 'LOUISIANA', kind: 'state' },
  { code: 'ME', name: 'MAINE', kind: 'state' },
  { code: 'MD', name: 'MARYLAND', kind: 'state' },
  { code: 'MA', name: 'MASSACHUSETTS', kind: 'state' },
  { code: 'MI', name: 'MICHIGAN', kind: 'state' },
  { code: 'MN', name: 'MINNESOTA', kind: 'state' },
  { code: 'MS', name: 'MISSISSIPPI', kind: 'state' },
  { code: 'MO', name: 'MISSOURI', kind: 'state' },
  { code: 'MT', name: 'MONTANA', kind: 'state' },
  { code: 'NE', name: 'NEBRASKA', kind: 'state' },
  { code: 'NV', name: 'NEVADA', kind: 'state' },
  { code: 'NH', name: 'NEW HAMPSHIRE', kind: 'state' },
  { code: 'NJ', name: 'NEW JERSEY', kind: 'state' },
  { code: 'NM', name: 'NEW MEXICO', kind: 'state' },
  { code: 'NY', name: 'NEW YORK', kind: 'state' },
  { code: 'NC', name: 'NORTH CAROLINA', kind: 'state' },
  { code: 'ND', name: 'NORTH DAKOTA', kind: 'state' },
  { code: 'OH', name: 'OHIO', kind: 'state' },
  { code: 'OK', name: 'OKLAHOMA', kind: 'state' },
  { code: 'OR', name: 'OREGON', kind: 'state' },
  { code: 'PA', name: 'PENNSYLVANIA', kind: 'state' },
  { code: 'RI', name: 'RHODE ISLAND', kind: 'state' },
  { code: 'SC', name: 'SOUTH CAROLINA', kind: 'state' },
  { code: 'SD', name: 'SOUTH DAKOTA', kind: 'state' },
  { code: 'TN', name: 'TENNESSEE', kind: 'state' },
  { code: 'TX', name: 'TEXAS', kind: 'state' },
  { code: 'UT', name: 'UTAH', kind: 'state' },
  { code: 'VT', name: 'VERMONT', kind: 'state' },
  { code: 'VA', name: 'VIRGINIA', kind: 'state' },
  { code: 'WA', name: 'WASHINGTON', kind: 'state' },
  { code: 'WV', name: 'WEST VIRGINIA', kind: 'state' },
  { code: 'WI', name: 'WISCONSIN', kind: 'state' },
  { code: 'WY', name: 'WYOMING', kind: 'state' },
  { code: 'AS', name: 'AMERICAN SAMOA', kind: 'territory' },
  { code: 'GU', name: 'GUAM', kind: 'territory' },
  { code: 'MP', name: 'NORTHERN MARIANA ISLANDS', kind: 'territory' },
  { code: 'PR', name: 'PUERTO RICO', kind: 'territory' },
  { code: 'VI', name: 'VIRGIN ISLANDS', kind: 'territory' },
  { code: 'FM', name: 'FEDERATED STATES OF MICRONESIA', kind: 'freely_associated' },
  { code: 'MH', name: 'MARSHALL ISLANDS', kind: 'freely_associated' },
  { code: 'PW', name: 'PALAU', kind: 'freely_associated' },
  { code: 'AA', name: 'ARMED FORCES AMERICAS', kind: 'military' },
  { code: 'AE', name: 'ARMED FORCES EUROPE', kind: 'military' },
  { code: 'AP', name: 'ARMED FORCES PACIFIC', kind: 'military' },
];

// Other spellings people type; AE also serves Africa, Canada and the Middle East.
const ALIASES: Readonly<Record<string, string>> = {
  'WASHINGTON DC': 'DC',
  'WASHINGTON D C': 'DC',
  'DIST OF COLUMBIA': 'DC',
  'US VIRGIN ISLANDS': 'VI',
  'U S VIRGIN ISLANDS': 'VI',
  'UNITED STATES VIRGIN ISLANDS': 'VI',
  'VIRGIN ISLANDS OF THE UNITED STATES': 'VI',
  'COMMONWEALTH OF THE NORTHERN MARIANA ISLANDS': 'MP',
  MICRONESIA: 'FM',
  'REPUBLIC OF THE MARSHALL ISLANDS': 'MH',
  'REPUBLIC OF PALAU': 'PW',
  'ARMED FORCES AFRICA': 'AE',
  'ARMED FORCES CANADA': 'AE',
  'ARMED FORCES MIDDLE EAST': 'AE',
  'ARMED FORCES AMERICAS EXCEPT CANADA': 'AA',
};

const BY_CODE = new Map<string, UsState>(US_STATES.map((s) => [s.code, s]));
const BY_NAME = new Map<string, string>([
  ...US_STATES.map((s): [string, string] => [s.name, s.code]),
  ...Object.entries(ALIASES),
]);

/** Longest state name in words, so callers scanning a line know how far back to look. */
export const MAX_STATE_NAME_WORDS = Math.max(...[...BY_NAME.keys()].map((n) => n.split(' ').length));

function clean(input: string): string {
  // "D.C." and "N. Y." collapse to their letters; other punctuation separates words.
  return input
    .toUpperCase()
    .replace(/\./g, '')
    .replace(/[^A-Z ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** USPS code for a two-letter code or full name in any case; undefined when unknown. */
export function stateCode(input: string): string | undefined {
  const key = clean(input);
  if (key.length === 2 && BY_CODE.has(key)) return key;
  const compact = key.replace(/ /g, '');
  if (compact.length === 2 && BY_CODE.has(compact)) return compact; // "N Y"
  return BY_NAME.get(key);
}

/** Full USPS name for a code (any case), or undefined. */
export function stateName(code: string): string | undefined {
  return BY_CODE.get(code.trim().toUpperCase())?.name;
}

export function isMilitaryState(code: string): boolean {
  return BY_CODE.get(code)?.kind === 'military';
}
