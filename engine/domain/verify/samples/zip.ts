// Test-mode ZIP lookup (docs/compat-notes.md): the catalog's generic sample carrying the ZIP sent; 00000 is invalid.
import { ZIP_LOOKUP_SAMPLE } from '../../../catalog/verifications';
import { assertZipCode, type ZipLookup } from '../zip-lookup';

export function testZipLookup(zip: string): ZipLookup {
  assertZipCode(zip);
  return { ...structuredClone(ZIP_LOOKUP_SAMPLE), zip_code: zip };
}
