import { stateCode } from '../catalog/us-states';

// How stored addresses are written: US ones standardized to USPS Publication 28, others upper-cased.
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

export function standardizeUsRecord(record: AddressRecord): AddressRecord {
  const upperd = upperRecord(record);
  const zip = upperd.address_zip?.replace(/^(\d{5})-?(\d{4})$/, '$1-$2') ?? null;
  return { ...upperd, address_state: stateCode(upperd.address_state ?? '') ?? upperd.address_state, address_zip: zip };
}
