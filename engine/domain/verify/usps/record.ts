// Address book records (address_line1/2, city, state, zip) in Pub 28 form.

import { formatZip, standardize, type StandardizeOptions } from './format';
import { parseUsAddress } from './parse';
import type { AddressLinesInput, StandardizedLines } from './types';

export interface AddressRecordFields {
  address_line1?: string | null;
  address_line2?: string | null;
  address_city?: string | null;
  address_state?: string | null;
  address_zip?: string | null;
}

export interface StandardizedAddressFields {
  address_line1: string;
  /** Units that did not fit on line 1, a PR urbanization, or unplaced text; null when none. */
  address_line2: string | null;
  address_city: string;
  /** USPS code when the state is recognized, else the cleaned input. */
  address_state: string;
  /** "12345" or "12345-6789" when it is a ZIP, else the cleaned input. */
  address_zip: string;
}

/** Longest address_line1 the API accepts. */
export const ADDRESS_LINE_MAX = 64;

/**
 * Standardizes the address fields of a record and keeps its other fields. Deterministic and
 * idempotent: a standardized record comes back unchanged.
 */
export function standardizeAddressRecord<T extends AddressRecordFields>(
  record: T,
): Omit<T, keyof StandardizedAddressFields> & StandardizedAddressFields {
  const parsed = parseUsAddress({
    primaryLine: record.address_line1 ?? '',
    secondaryLine: record.address_line2,
    city: record.address_city,
    state: record.address_state,
    zipCode: record.address_zip,
  });
  const lines = standardize(parsed, { maxPrimaryLineLength: ADDRESS_LINE_MAX });
  // The urbanization has no field of its own in a record; it rides on line 2 where the parser
  // finds it again.
  const line2 = [lines.urbanization, lines.secondaryLine].filter((p) => p !== '').join(' ');
  return {
    ...record,
    address_line1: lines.primaryLine,
    address_line2: line2 === '' ? null : line2,
    address_city: parsed.city,
    address_state: parsed.state,
    address_zip: formatZip(parsed.zip_code, parsed.zip_code_plus_4),
  };
}

/** Parse and standardize in one step. */
export function standardizeAddress(input: string | AddressLinesInput, options?: StandardizeOptions): StandardizedLines {
  return standardize(parseUsAddress(input), options);
}
