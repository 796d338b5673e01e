// Live international verification, offline: the postal code is checked against the country's format
// (postcode-validator), the locality lines are put in the country's postal order (localized-address-
// format, Google's libaddressinput data) and upper-cased. No street data: deliverability says what
// the input itself shows (a missing part, a malformed postal code, a postal code of another province).
import type { IntlVerificationInput } from '../../catalog/verification-fields';
import type { IntlCoverage, IntlStatus } from '../../catalog/verification-objects';
import { formatAddress } from 'localized-address-format';
import { postcodeValidator, postcodeValidatorExistsForCountry } from 'postcode-validator';
import { newId } from '../../base/ids';
import { hasRegions, regionCode, regionsOfPostalCode } from './intl-regions';
import { liveCoverage, liveStatus, type IntlDeliverability } from './intl-levels';

export type { IntlDeliverability } from './intl-levels';

export interface IntlVerification {
  id: string;
  recipient: string | null;
  primary_line: string;
  secondary_line: string;
  last_line: string;
  country: string;
  coverage: IntlCoverage;
  deliverability: IntlDeliverability;
  status: IntlStatus;
  components: { primary_number: string; street_name: string; city: string; state: string; postal_code: string };
  object: 'intl_verification';
}

const up = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim().toUpperCase();

/** The country's usual spacing and punctuation of a postal code ("sw1a2aa" -> "SW1A 2AA"). */
export function normalizePostalCode(country: string, raw: string): string {
  const c = up(raw).replace(/^[A-Z]{2}-(?=\d)/, (p) => (p.slice(0, 2) === country ? '' : p));
  const compact = c.replace(/[\s-]/g, '');
  switch (country) {
    case 'GB':
      return /^[A-Z]{1,2}\d[A-Z\d]?\d[A-Z]{2}$/.test(compact) ? `${compact.slice(0, -3)} ${compact.slice(-3)}` : c;
    case 'CA':
      return /^[A-Z]\d[A-Z]\d[A-Z]\d$/.test(compact) ? `${compact.slice(0, 3)} ${compact.slice(3)}` : c;
    case 'NL':
      return /^\d{4}[A-Z]{2}$/.test(compact) ? `${compact.slice(0, 4)} ${compact.slice(4)}` : c;
    case 'BR':
      return /^\d{8}$/.test(compact) ? `${compact.slice(0, 5)}-${compact.slice(5)}` : c;
    case 'JP':
      return /^\d{7}$/.test(compact) ? `${compact.slice(0, 3)}-${compact.slice(3)}` : c.replace(/^〒\s*/, '');
    case 'PL':
      return /^\d{5}$/.test(compact) ? `${compact.slice(0, 2)}-${compact.slice(2)}` : c;
    case 'SE':
      return /^\d{5}$/.test(compact) ? `${compact.slice(0, 3)} ${compact.slice(3)}` : c;
    default:
      return c;
  }
}

const fieldCache = new Map<string, boolean>();

/** Whether the country's address format prints a field (probed through the formatter itself). */
function printsField(country: string, field: 'locality' | 'postalCode' | 'administrativeArea'): boolean {
  const key = `${country} ${field}`;
  let known = fieldCache.get(key);
  if (known === undefined) {
    known = formatAddress({ postalCountry: country, [field]: 'QQQ' }, 'latin').some((l) => l.includes('QQQ'));
    fieldCache.set(key, known);
  }
  return known;
}

function postalCodeValid(country: string, code: string): boolean {
  if (!postcodeValidatorExistsForCountry(country)) return true;
  try {
    return postcodeValidator(code, country);
  } catch {
    return true; // no pattern for this country: nothing to hold it against
  }
}

/** "370 WATER ST" -> 370 + WATER ST; "UNTER DEN LINDEN 77" -> 77 + UNTER DEN LINDEN; "AV PAULISTA, 1578" likewise. */
export function splitStreet(line: string): { primary_number: string; street_name: string } {
  const NUM = '(\\d+[A-Z]?(?:[-/]\\d+[A-Z]?)*)';
  const lead = new RegExp(`^${NUM},?\\s+(.+)$`).exec(line);
  if (lead) return { primary_number: lead[1], street_name: lead[2] };
  const tail = new RegExp(`^(.+?),?\\s+(?:NO\\.?\\s*|Nº\\s*)?${NUM}$`).exec(line);
  if (tail) return { primary_number: tail[2], street_name: tail[1] };
  return { primary_number: '', street_name: line };
}

/** One-line form: the first comma part is the street; the postal code is found by the country's pattern. */
function fromOneLine(country: string, address: string): Omit<IntlVerificationInput, 'country'> {
  const parts = up(address)
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const primary = parts.shift() ?? '';
  let words = parts.join(' ').split(' ').filter(Boolean);
  let postal = '';
  for (const n of [2, 1]) {
    for (const at of [words.length - n, 0]) {
      const candidate = words.slice(at, at + n).join(' ');
      if (
        !postal &&
        at >= 0 &&
        words.length >= n &&
        /\d/.test(candidate) &&
        postcodeValidatorExistsForCountry(country) &&
        postalCodeValid(country, normalizePostalCode(country, candidate))
      ) {
        postal = candidate;
        words = [...words.slice(0, at), ...words.slice(at + n)];
      }
    }
  }
  let state = '';
  if (words.length > 1 && regionCode(country, words[words.length - 1])) state = words.pop()!;
  return { primary_line: primary, city: words.join(' '), state, postal_code: postal };
}

export function verifyIntlAddress(input: IntlVerificationInput): IntlVerification {
  const country = input.country.toUpperCase();
  const body = input.address !== undefined && input.address.trim() !== '' ? fromOneLine(country, input.address) : input;
  const primary = up(body.primary_line);
  const city = up(body.city);
  const stateIn = up(body.state);
  const state = regionCode(country, stateIn) ?? stateIn;
  const postal = body.postal_code ? normalizePostalCode(country, body.postal_code) : '';

  let deliverability: IntlDeliverability = 'deliverable';
  if (postal !== '' && !postalCodeValid(country, postal)) deliverability = 'no_match';
  else if (postal !== '' && state !== '' && !(regionsOfPostalCode(country, postal)?.includes(state) ?? true))
    deliverability = 'undeliverable';
  else if (
    (printsField(country, 'locality') && city === '') ||
    (printsField(country, 'postalCode') && postcodeValidatorExistsForCountry(country) && postal === '') ||
    (hasRegions(country) && state === '')
  ) {
    deliverability = 'deliverable_missing_info';
  }

  const locality = formatAddress(
    { postalCountry: country, locality: city, administrativeArea: state, postalCode: postal, addressLines: [] },
    'latin',
  );
  // Formats whose locality lives in the address lines (JP latin) would drop the city: keep it in front.
  const lastLine = up([printsField(country, 'locality') ? '' : city, ...locality].filter(Boolean).join(' '));
  return {
    id: newId('intl_ver'),
    recipient: input.recipient ? up(input.recipient) : null,
    primary_line: primary,
    secondary_line: up(body.secondary_line),
    last_line: lastLine,
    country,
    coverage: liveCoverage(country),
    deliverability,
    status: liveStatus(deliverability),
    components: { ...splitStreet(primary), city, state, postal_code: postal },
    object: 'intl_verification',
  };
}
