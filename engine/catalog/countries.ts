// ISO 3166-1 alpha-2 codes (officially assigned). Names come from the runtime's ICU data, upper-cased
// the way the spec returns them, so this file carries only the codes.
const CODES =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
  'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
  'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
  'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
  'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
  'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW XK';

export const COUNTRY_CODES: ReadonlySet<string> = new Set(CODES.split(' '));

/** US territories with their own ISO code that USPS serves as domestic mail. */
export const US_TERRITORIES: ReadonlySet<string> = new Set(['PR', 'VI', 'GU', 'AS', 'MP', 'UM', 'FM', 'MH', 'PW']);

/** Where the vendor's published country names differ from ICU's English names (its enum is the contract). */
const VENDOR_NAMES: Record<string, string> = {
  AG: 'ANTIGUA AND BARBUDA',
  BO: 'BOLIVIA (PLURINATIONAL STATE OF)',
  BQ: 'BONAIRE, SAINT EUSTATIUS AND SABA',
  BA: 'BOSNIA AND HERZEGOVINA',
  BN: 'BRUNEI DARUSSALAM',
  CV: 'CABO VERDE',
  CG: 'CONGO',
  CD: 'CONGO, DEMOCRATIC REPUBLIC OF THE',
  CI: "CÔTE D'IVOIRE",
  CW: 'CURAÇAO',
  CZ: 'CZECH REPUBLIC',
  FK: 'FALKLAND ISLANDS (MALVINAS)',
  VA: 'HOLY SEE',
  HK: 'HONG KONG',
  IR: 'IRAN (ISLAMIC REPUBLIC OF)',
  KP: 'KOREA (DEMOCRATIC PEOPLE’S REPUBLIC OF)',
  KR: 'KOREA, REPUBLIC OF',
  LA: 'LAO PEOPLE’S DEMOCRATIC REPUBLIC',
  MO: 'MACAO',
  MK: 'MACEDONIA',
  MD: 'MOLDOVA, REPUBLIC OF',
  MM: 'MYANMAR',
  PN: 'PITCAIRN',
  RU: 'RUSSIAN FEDERATION',
  SH: 'SAINT HELENA',
  KN: 'SAINT KITTS AND NEVIS',
  LC: 'SAINT LUCIA',
  VC: 'SAINT VINCENT AND THE GRENADINES',
  ST: 'SAO TOME AND PRINCIPE',
  GS: 'SOUTH GEORGIA AND THE SOUTH SANDWICH ISLANDS',
  SY: 'SYRIAN ARAB REPUBLIC',
  BS: 'THE BAHAMAS',
  TT: 'TRINIDAD AND TOBAGO',
  TR: 'TURKEY',
  TC: 'TURKS AND CAICOS ISLANDS',
  VN: 'VIET NAM',
};

const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

export function isCountryCode(code: string): boolean {
  return COUNTRY_CODES.has(code.toUpperCase());
}

const nameCache = new Map<string, string>();

/** `us` -> `UNITED STATES`; unknown codes come back unchanged. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  if (!COUNTRY_CODES.has(upper)) return code;
  let name = nameCache.get(upper);
  if (name === undefined) {
    name = VENDOR_NAMES[upper] ?? icuName(upper);
    nameCache.set(upper, name);
  }
  return name;
}

function icuName(upper: string): string {
  return (names.of(upper) ?? upper)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/’/g, "'")
    .toUpperCase();
}
