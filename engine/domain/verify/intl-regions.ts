// Regions whose postal abbreviations are standard on mail (CA provinces, AU states, BR states), and
// for CA and AU which regions a postal code belongs to, so a code of another province is caught.

const REGIONS: Record<string, Record<string, string>> = {
  CA: {
    ALBERTA: 'AB',
    'BRITISH COLUMBIA': 'BC',
    MANITOBA: 'MB',
    'NEW BRUNSWICK': 'NB',
    'NEWFOUNDLAND AND LABRADOR': 'NL',
    NEWFOUNDLAND: 'NL',
    'NOVA SCOTIA': 'NS',
    'NORTHWEST TERRITORIES': 'NT',
    NUNAVUT: 'NU',
    ONTARIO: 'ON',
    'PRINCE EDWARD ISLAND': 'PE',
    // the vendor's own example spells it "Prince Edwards Island"
    'PRINCE EDWARDS ISLAND': 'PE',
    QUEBEC: 'QC',
    QUÉBEC: 'QC',
    SASKATCHEWAN: 'SK',
    YUKON: 'YT',
  },
  AU: {
    'AUSTRALIAN CAPITAL TERRITORY': 'ACT',
    'NEW SOUTH WALES': 'NSW',
    'NORTHERN TERRITORY': 'NT',
    QUEENSLAND: 'QLD',
    'SOUTH AUSTRALIA': 'SA',
    TASMANIA: 'TAS',
    VICTORIA: 'VIC',
    'WESTERN AUSTRALIA': 'WA',
  },
  BR: {
    ACRE: 'AC',
    ALAGOAS: 'AL',
    AMAPA: 'AP',
    AMAZONAS: 'AM',
    BAHIA: 'BA',
    CEARA: 'CE',
    'DISTRITO FEDERAL': 'DF',
    'ESPIRITO SANTO': 'ES',
    GOIAS: 'GO',
    MARANHAO: 'MA',
    'MATO GROSSO': 'MT',
    'MATO GROSSO DO SUL': 'MS',
    'MINAS GERAIS': 'MG',
    PARA: 'PA',
    PARAIBA: 'PB',
    PARANA: 'PR',
    PERNAMBUCO: 'PE',
    PIAUI: 'PI',
    'RIO DE JANEIRO': 'RJ',
    'RIO GRANDE DO NORTE': 'RN',
    'RIO GRANDE DO SUL': 'RS',
    RONDONIA: 'RO',
    RORAIMA: 'RR',
    'SANTA CATARINA': 'SC',
    'SAO PAULO': 'SP',
    SERGIPE: 'SE',
    TOCANTINS: 'TO',
  },
};

const plain = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\./g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();

/** A table's own entry: the keys come from the customer, and "constructor" must find nothing. */
const own = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined =>
  Object.hasOwn(table, key) ? table[key] : undefined;

export function hasRegions(country: string): boolean {
  return Object.hasOwn(REGIONS, country);
}

/** The postal abbreviation of a region name or code, if the country has a table and knows it. */
export function regionCode(country: string, input: string): string | undefined {
  const table = own(REGIONS, country);
  if (!table || input.trim() === '') return undefined;
  const p = plain(input);
  if (Object.values(table).includes(p)) return p;
  return own(table, p) ?? own(table, plain(p));
}

const CA_FIRST_LETTER: Record<string, string[]> = {
  A: ['NL'],
  B: ['NS'],
  C: ['PE'],
  E: ['NB'],
  G: ['QC'],
  H: ['QC'],
  J: ['QC'],
  K: ['ON'],
  L: ['ON'],
  M: ['ON'],
  N: ['ON'],
  P: ['ON'],
  R: ['MB'],
  S: ['SK'],
  T: ['AB'],
  V: ['BC'],
  X: ['NT', 'NU'],
  Y: ['YT'],
};

// [from, to, states]; the ACT/NSW border ranges accept both.
const AU_RANGES: [number, number, string[]][] = [
  [200, 299, ['ACT']],
  [800, 999, ['NT']],
  [1000, 2599, ['NSW']],
  [2600, 2639, ['ACT', 'NSW']],
  [2640, 2899, ['NSW']],
  [2900, 2920, ['ACT', 'NSW']],
  [2921, 2999, ['NSW']],
  [3000, 3999, ['VIC']],
  [4000, 4999, ['QLD']],
  [5000, 5999, ['SA']],
  [6000, 6999, ['WA']],
  [7000, 7999, ['TAS']],
  [8000, 8999, ['VIC']],
  [9000, 9999, ['QLD']],
];

/** Regions a (valid) postal code belongs to; undefined when the country has no such table. */
export function regionsOfPostalCode(country: string, postal: string): string[] | undefined {
  if (country === 'CA') return own(CA_FIRST_LETTER, postal.charAt(0)) ?? [];
  if (country === 'AU' && /^\d{4}$/.test(postal)) {
    const n = Number(postal);
    return AU_RANGES.find(([from, to]) => n >= from && n <= to)?.[2] ?? [];
  }
  return undefined;
}
