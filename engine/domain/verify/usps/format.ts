// standardize: components -> Pub 28 lines (upper case, abbreviated, single spaces).

import { directional } from './directionals';
import { parseZip } from './lastline';
import { stateCode } from './states';
import { streetSuffix } from './suffixes';
import { cleanLine } from './text';
import type { AddressKind, StandardizedLines, UsAddressComponents } from './types';
import { unitDesignator } from './units';

export interface StandardizeOptions {
  /**
   * Longest primary line that still carries the units; beyond it they move to the secondary
   * line. Defaults to 64, the API's address_line1 limit.
   */
  maxPrimaryLineLength?: number;
}

export type StandardizeInput = Partial<UsAddressComponents> & { kind?: AddressKind; unparsed?: string };

// Non-street lines print their fixed words before the box number ("PO BOX 123").
const BOX_FIRST = /^(PO BOX|RR\b|HC\b|PSC \d|CMR \d|UNIT \d+ BOX|GENERAL DELIVERY|USS |USNS |USCGC |USNV )/;

function boxFirst(kind: AddressKind | undefined, streetName: string): boolean {
  if (kind !== undefined) return kind !== 'street';
  return BOX_FIRST.test(streetName);
}

function join(...parts: readonly string[]): string {
  return parts.filter((p) => p !== '').join(' ');
}

function abbreviate(value: string | undefined, table: (w: string) => string | undefined): string {
  const v = cleanLine(value ?? '');
  return table(v) ?? v;
}

function unitText(designator: string | undefined, number: string | undefined): string {
  const d = abbreviate(designator, unitDesignator);
  const n = cleanLine(number ?? '').replace(/^# ?/, '');
  if (d === '' && n === '') return '';
  return join(d === '' ? '#' : d, n);
}

/** The ZIP as "12345" or "12345-6789"; text that is no ZIP is kept, cleaned, so nothing is lost. */
export function formatZip(zip: string | undefined, plus4?: string): string {
  const raw = `${(zip ?? '').trim()}${plus4 && plus4.trim() !== '' ? `-${plus4.trim()}` : ''}`;
  const parsed = parseZip(raw);
  if (!parsed) return cleanLine(raw);
  return parsed.zip_code_plus_4 ? `${parsed.zip_code}-${parsed.zip_code_plus_4}` : parsed.zip_code;
}

/** "CITY ST 12345-6789" from its parts. */
export function formatLastLine(c: StandardizeInput): string {
  const state = cleanLine(c.state ?? '');
  return join(cleanLine(c.city ?? ''), stateCode(state) ?? state, formatZip(c.zip_code, c.zip_code_plus_4));
}

/**
 * Pub 28 lines from components. Units and the PMB follow the street on the primary line
 * ("123 MAIN ST APT 4 PMB 5") unless that would exceed `maxPrimaryLineLength`; text the
 * parser could not place goes on the secondary line after any units.
 */
export function standardize(c: StandardizeInput, options: StandardizeOptions = {}): StandardizedLines {
  const max = options.maxPrimaryLineLength ?? 64;
  const name = cleanLine(c.street_name ?? '');
  const number = cleanLine(c.primary_number ?? '');

  const base = boxFirst(c.kind, name)
    ? join(name, number)
    : join(
        number,
        abbreviate(c.street_predirection, directional),
        name,
        abbreviate(c.street_suffix, streetSuffix),
        abbreviate(c.street_postdirection, directional),
      );

  const pmbNumber = cleanLine(c.pmb_number ?? '').replace(/^# ?/, '');
  const pmb = pmbNumber === '' ? '' : join(cleanLine(c.pmb_designator ?? '') || 'PMB', pmbNumber);
  const units = join(
    unitText(c.secondary_designator, c.secondary_number),
    unitText(c.extra_secondary_designator, c.extra_secondary_number),
    pmb,
  );

  const together = join(base, units);
  const fits = together.length <= max;
  return {
    primaryLine: fits ? together : base,
    secondaryLine: join(fits ? '' : units, cleanLine(c.unparsed ?? '')),
    lastLine: formatLastLine(c),
    urbanization: cleanLine(c.urbanization ?? ''),
  };
}
