// A first guess at which column of an uploaded file holds each address field, from the header's names
// (`zip`, `Postal Code`, `primary_line`, ...), so the mapping form opens filled in; the user confirms or
// changes it. A column is guessed for one field at most.
import { OPTIONAL_ADDRESS_FIELDS, REQUIRED_ADDRESS_FIELDS } from '../../../catalog/audience-uploads';

export type AddressField = (typeof REQUIRED_ADDRESS_FIELDS)[number] | (typeof OPTIONAL_ADDRESS_FIELDS)[number];

const NAMES: Record<AddressField, readonly string[]> = {
  name: ['name', 'recipient', 'recipientname', 'fullname', 'toname', 'contact', 'contactname'],
  address_line1: ['addressline1', 'address1', 'address', 'primaryline', 'street', 'streetaddress', 'line1'],
  address_line2: ['addressline2', 'address2', 'secondaryline', 'unit', 'apt', 'suite', 'line2'],
  address_city: ['addresscity', 'city', 'town'],
  address_state: ['addressstate', 'state', 'province', 'region', 'st'],
  address_zip: ['addresszip', 'zip', 'zipcode', 'postalcode', 'postcode', 'zip5'],
  company: ['company', 'companyname', 'organization', 'organisation', 'business'],
  address_country: ['addresscountry', 'country', 'countrycode'],
};

const squash = (header: string) => header.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Address field -> the column guessed for it (fields with no likely column are left out). */
export function guessMapping(columns: readonly string[]): Partial<Record<AddressField, string>> {
  const taken = new Set<string>();
  const guessed: Partial<Record<AddressField, string>> = {};
  for (const field of [...REQUIRED_ADDRESS_FIELDS, ...OPTIONAL_ADDRESS_FIELDS]) {
    const column = columns.find((c) => !taken.has(c) && NAMES[field].includes(squash(c)));
    if (column === undefined) continue;
    guessed[field] = column;
    taken.add(column);
  }
  return guessed;
}
