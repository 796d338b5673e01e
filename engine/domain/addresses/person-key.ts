// A recipient as a person at a place: the name (or company) and the address standardized as the
// address book stores a US address (the verifier's Pub 28 lines, the ZIP's own city and state), so
// "123 Main Street, San Francisco" and "123 MAIN ST SAN FRANCISCO" written by two entries, or a book
// entry and a row of a file, are the same person. A campaign mails a person once (engine/domain/campaigns).
import { createHash } from 'node:crypto';
import { countryName } from '../../catalog/countries';
import { standardizeUsRecord } from '../verify/strictness';

/** An address as stored or given inline: its name, company and address fields are read. */
export type PersonAddress = Readonly<Record<string, unknown>>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Upper case, punctuation dropped, spaces collapsed: "J. Smith-Jones" and "J SMITH JONES" are one name. */
const plain = (value: unknown): string =>
  text(value)
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const US_NAMES = new Set(['', 'US', 'USA', countryName('US').toUpperCase()]);

/**
 * The person's key: a digest of the name or company and the standardized address (32 hex characters).
 * `stored`: the address is an address book entry, standardized when it was saved (the same verifier),
 * so it is not run again: a run keys thousands of them.
 */
export function personKey(address: PersonAddress, { stored = false } = {}): string {
  const country = plain(address.address_country);
  const us = US_NAMES.has(country) || US_NAMES.has(text(address.address_country).toUpperCase());
  const line1 = text(address.address_line1);
  let place: string[];
  if (us && line1 !== '') {
    const record = {
      address_line1: line1,
      address_line2: text(address.address_line2) || null,
      address_city: text(address.address_city) || null,
      address_state: text(address.address_state) || null,
      address_zip: text(address.address_zip) || null,
    };
    const standard = stored ? record : standardizeUsRecord(record);
    const zip5 = text(standard.address_zip).replace(/\D/g, '').slice(0, 5) || plain(address.address_zip);
    place = [
      'US',
      plain(standard.address_line1 || line1),
      plain(standard.address_line2),
      plain(standard.address_city),
      plain(standard.address_state),
      zip5,
    ];
  } else {
    place = [
      country,
      plain(line1),
      plain(address.address_line2),
      plain(address.address_city),
      plain(address.address_state),
      plain(address.address_zip).replace(/ /g, ''),
    ];
  }
  const who = [plain(address.name), plain(address.company)];
  return createHash('sha256')
    .update(JSON.stringify([...who, ...place]))
    .digest('hex')
    .slice(0, 32);
}
