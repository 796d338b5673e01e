// How non-US addresses are stored: only upper-cased (spec, Create rule 3). US ones go through the verifier.

export interface AddressRecord {
  address_line1: string;
  address_line2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zip: string | null;
}

const upper = (value: string | null): string | null =>
  value === null ? null : value.replace(/\s+/g, ' ').trim().toUpperCase();

export function upperRecord(record: AddressRecord): AddressRecord {
  return {
    address_line1: upper(record.address_line1) ?? '',
    address_line2: upper(record.address_line2),
    address_city: upper(record.address_city),
    address_state: upper(record.address_state),
    address_zip: upper(record.address_zip),
  };
}
