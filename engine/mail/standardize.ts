// How stored addresses are written: US ones standardized to USPS Publication 28, others upper-cased.
import { standardizeAddressRecord } from '../verify/usps';

export interface AddressRecord {
  address_line1: string;
  address_line2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip: string | null;
}

const upper = (value: string | null): string | null => (value === null ? null : value.replace(/\s+/g, ' ').trim().toUpperCase());

export function upperRecord(record: AddressRecord): AddressRecord {
  return {
    address_line1: upper(record.address_line1) ?? '',
    address_line2: upper(record.address_line2),
    address_city: upper(record.address_city),
    address_state: upper(record.address_state),
    address_zip: upper(record.address_zip),
  };
}

/** Deterministic: the same input always gives the same lines, and standardized lines stay as they are. */
export function standardizeUsRecord(record: AddressRecord): AddressRecord {
  const out = standardizeAddressRecord(record);
  return { address_line1: out.address_line1, address_line2: out.address_line2, address_city: out.address_city, address_state: out.address_state, address_zip: out.address_zip };
}
