// Live ZIP lookup from the bundled ZIP database: every city of the ZIP, the preferred one first.
import type { Static } from '@sinclair/typebox';
import { ApiError } from '../../base/errors';
import { newId } from '../../base/ids';
import type { zipLookupObject } from '../../catalog/verification-objects';
import { lookupZip } from './zipdb';

export type ZipLookup = Static<ReturnType<typeof zipLookupObject>>;
export type ZipCity = ZipLookup['cities'][number];

/** 00000 is refused in test and live mode alike (spec). */
export function assertZipCode(zip: string): void {
  if (zip === '00000') throw new ApiError('invalid', 'invalid zip code', 422);
}

/** A well-formed ZIP the database does not know comes back with no cities and an empty type. */
export function lookupUsZip(zip: string): ZipLookup {
  assertZipCode(zip);
  const record = lookupZip(zip);
  return {
    id: newId('us_zip'),
    zip_code: zip,
    zip_code_type: record?.type ?? '',
    cities: (record?.cities ?? []).map((city, i) => ({
      city,
      state: record!.state,
      county: record!.county,
      county_fips: record!.countyFips,
      preferred: i === 0,
    })),
    object: 'us_zip_lookup',
  };
}
