// The address book: create (standardized, limits, NCOA sample), retrieve, delete.
import { ApiError, notFound } from '../../base/errors';
import { countryName, US_TERRITORIES } from '../../catalog/countries';
import { eventOf } from '../../catalog';
import { addresses } from '../../catalog/addresses';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import type { ApiObject, Scope } from '../../store/objects';
import type { Services } from '../services';
import type { CounterKey } from '../../store/counters';
import type { CounterTake } from '../../store/commit';
import type { Settings } from '../accounts/settings';
import type { AddressInput } from '../../catalog/address-fields';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { upperRecord, type AddressRecord } from './standardize';
import { standardizeUsRecord, streetVerdictOf, verifiedUsRecord } from '../verify/strictness';
import type { StreetVerdict } from '../streets/match';
import type { StreetLookups } from '../../store/streets';

const KIND = addresses.name;
const CREATED = eventOf(addresses, 'created');

/** Spec sample: in test mode `address_line1: NCOA` stands for a recipient who filed a change of address. */
const NCOA_SAMPLE: AddressRecord = {
  address_line1: '1313 CEMETERY LN',
  address_line2: null,
  address_city: 'WESTFIELD',
  address_state: 'NJ',
  address_zip: '07090-1234',
};

const text = (value: string | null | undefined): string | null =>
  value === undefined || value === null || value === '' ? null : value;

/**
 * Builds the stored address from a validated create body (no id or dates yet). `standardize: false`
 * only upper-cases (a mailpiece's `from`: spec, standardized to upper case without verification changes).
 * `strictness` (a mailpiece's `to`) also holds a US address to the account's US mail strictness, from
 * the same verifier run that standardizes it.
 */
function recordOf(input: AddressInput): { country: string; record: AddressRecord } {
  const given = (input.address_country ?? 'US').toUpperCase();
  const territory = US_TERRITORIES.has(given);
  const record: AddressRecord = {
    address_line1: input.address_line1,
    address_line2: text(input.address_line2),
    address_city: text(input.address_city),
    address_state: text(input.address_state) ?? (territory ? given : null),
    address_zip: text(input.address_zip),
  };
  return { country: territory ? 'US' : given, record };
}

/** What the loaded street data says of a live US address, for buildAddress (undefined: no say). */
export async function liveStreetVerdict(
  lookups: StreetLookups,
  input: AddressInput,
  mode: Scope['mode'],
): Promise<StreetVerdict | undefined> {
  const { country, record } = recordOf(input);
  return mode === 'live' && country === 'US' ? streetVerdictOf(lookups, record) : undefined;
}

export function buildAddress(
  input: AddressInput,
  mode: Scope['mode'],
  {
    standardize = true,
    strictness,
    verdict,
  }: { standardize?: boolean; strictness?: string; verdict?: StreetVerdict } = {},
): Omit<ApiObject, 'id' | 'date_created' | 'date_modified'> {
  const { country, record } = recordOf(input);
  let lines: AddressRecord;
  let recipientMoved: boolean | null = null;
  if (country !== 'US' || !standardize) {
    lines = upperRecord(record);
  } else if (mode === 'test' && record.address_line1.trim().toUpperCase() === 'NCOA') {
    lines = NCOA_SAMPLE;
    recipientMoved = true;
  } else {
    // Corrected and standardized when possible (spec), the same in both modes: the verifier's Pub 28
    // lines, city, state and ZIP from the ZIP database. Strictness applies to mailpieces, not the book.
    const { deliverability: _judged, ...standard } = strictness
      ? verifiedUsRecord(record, strictness, mode, 'to', verdict)
      : { ...standardizeUsRecord(record, mode === 'live' ? verdict : undefined), deliverability: undefined };
    lines = { ...standard, address_line1: standard.address_line1 || upperRecord(record).address_line1 };
    recipientMoved = mode === 'test' ? false : null;
  }
  return {
    description: text(input.description),
    name: text(input.name)?.toUpperCase() ?? null,
    company: text(input.company)?.toUpperCase() ?? null,
    phone: text(input.phone),
    email: text(input.email),
    ...lines,
    address_country: countryName(country),
    metadata: input.metadata ?? {},
    recipient_moved: recipientMoved,
    object: 'address',
  };
}

/** Live addresses count against the edition's limit; the counter moves with creates and deletes. */
const liveAddresses = (scope: Scope): CounterKey => ({
  accountId: scope.accountId,
  name: 'live_addresses',
  period: 'all',
});

export async function createAddress(
  services: Services,
  scope: Scope,
  settings: Settings,
  input: AddressInput,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  const now = nowIso();
  const address: ApiObject = {
    id: newId('adr'),
    ...buildAddress(input, scope.mode, { verdict: await liveStreetVerdict(services.store.streets, input, scope.mode) }),
    date_created: now,
    date_modified: now,
  };
  // Live addresses count against the edition's limit: the count and the address commit together, so
  // a crash between them can neither lose a slot nor let one through.
  return services.objects.insert(scope, KIND, address, {
    claim,
    events: [CREATED],
    takes: scope.mode === 'live' ? liveAddressSlots(scope, settings, 1) : undefined,
  });
}

/**
 * `count` places of the live edition limit, taken in the commit of what needs them (a live address, or
 * a mailpiece's inline addresses, which are saved to the book too); 403 feature_limit_reached when full.
 */
export function liveAddressSlots(scope: Scope, settings: Settings, count: number): CounterTake[] {
  const take: CounterTake = {
    counter: liveAddresses(scope),
    below: settings.address_limit,
    refusal: () =>
      new ApiError(
        'feature_limit_reached',
        `This account has reached its limit of ${settings.address_limit} addresses. Upgrade your edition to add more.`,
        403,
      ),
  };
  return Array.from({ length: count }, () => take);
}

/** Deletes through the generic path, then gives the live allowance its place back. */
export async function deleteAddress(
  services: Services,
  scope: Scope,
  id: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await services.objects.delete(scope, addresses, id))) throw notFound('address');
  if (scope.mode === 'live') await services.store.counters.adjustCounter(liveAddresses(scope), -1);
  return { id, deleted: true };
}
