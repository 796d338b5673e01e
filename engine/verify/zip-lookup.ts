// Live ZIP lookup from the bundled ZIP database: every city of the ZIP, the preferred one first.
import { ApiError } from '../errors';
import { newId } from '../util/ids';
import { lookupZip } from './zipdb';
import type { ZipCodeType } from './us-object';

export interface ZipCity {
  city: string;
  state: string;
  county: string;
  county_fips: string;
  preferred: boolean;
}

export interface ZipLookup {
  id: string;
  zip_code: string;
  zip_code_type: ZipCodeType;
  cities: ZipCity[];
  object: 'us_zip_lookup';
}

/** A well-formed ZIP the database does not know comes back with no cities and an empty type. */
export function lookupUsZip(zip: string): ZipLookup {
  if (zip === '00000') throw new ApiError('invalid', 'invalid zip code', 422);
  const record = lookupZip(zip);
  return {
    id: newId('us_zip'),
    zip_code: zip,
    zip_code_type: record?.type ?? '',
    cities: (record?.cities ?? []).map((city, i) => ({ city, state: record!.state, county: record!.county, county_fips: record!.countyFips, preferred: i === 0 })),
    object: 'us_zip_lookup',
  };
}
