// Test-mode ZIP lookup (gaps.md): one generic sample carrying the ZIP sent; 00000 is invalid.
import { ApiError } from '../../errors';
import type { ZipLookup } from '../zip-lookup';

export function testZipLookup(zip: string): ZipLookup {
  if (zip === '00000') throw new ApiError('invalid', 'invalid zip code', 422);
  return {
    id: 'us_zip_c7cb63d68f8d6',
    zip_code: zip,
    zip_code_type: 'standard',
    cities: [{ city: 'SAN FRANCISCO', state: 'CA', county: 'SAN FRANCISCO', county_fips: '06075', preferred: true }],
    object: 'us_zip_lookup',
  };
}
