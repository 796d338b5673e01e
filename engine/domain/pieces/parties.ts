// A piece's `to` and `from`: an address book id is read; an inline address is built by the address
// book code (the recipient standardized and held to the account's US mail strictness, the sender only
// upper-cased) and saved with the piece as an address of its own.
import { ApiError } from '../../base/errors';
import { eventOf } from '../../catalog';
import { addresses } from '../../catalog/addresses';
import type { AddressInput } from '../../catalog/address-fields';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { newId } from '../../base/ids';
import { buildAddress, liveStreetVerdict } from '../addresses/address-book';
import type { StreetLookups } from '../../store/streets';

export interface Party {
  address: ApiObject;
  /** saved with the piece (inline), not read from the book */
  inline: boolean;
}

const CREATED = eventOf(addresses, 'created');
export const addressCreated = CREATED;

export async function resolveParty(
  objects: ObjectStore,
  scope: Scope,
  value: string | AddressInput,
  role: 'to' | 'from',
  options: { strictness: string; now: string; streets?: StreetLookups },
): Promise<Party> {
  if (typeof value === 'string') {
    const address = await objects.get(scope, addresses.name, value);
    if (!address) throw new ApiError('not_found', `${role} address ${value} not found`, 404);
    return { address, inline: false };
  }
  const recipient = role === 'to';
  // one verifier run standardizes the recipient and holds it to the account's strictness
  // in live mode the street data judges the recipient as POST /v1/us_verifications does
  const verdict =
    recipient && options.streets ? await liveStreetVerdict(options.streets, value, scope.mode) : undefined;
  const built = buildAddress(value, scope.mode, {
    standardize: recipient,
    strictness: recipient ? options.strictness : undefined,
    verdict,
  });
  const address: ApiObject = { id: newId('adr'), ...built, date_created: options.now, date_modified: options.now };
  return { address, inline: true };
}
