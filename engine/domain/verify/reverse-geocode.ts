// `POST /v1/us_reverse_geocode_lookups`: the ZIPs nearest a point from the bundled ZIP database, in
// test and live mode alike (it is offline and spends nothing). No ZIP+4: no USPS delivery data.
import { newId } from '../../base/ids';
import type { ReverseGeocodeLookup } from '../../catalog/reverse-geocode';
import { nearestZips } from './zipdb';

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

export function reverseGeocode(latitude: number, longitude: number, size = 5): ReverseGeocodeLookup {
  return {
    id: newId('us_reverse_geocode'),
    addresses: nearestZips(latitude, longitude, size).map((z) => ({
      components: { zip_code: z.zip, zip_code_plus_4: '' },
      location_analysis: { latitude: z.latitude, longitude: z.longitude, distance: round(z.miles, 2) },
    })),
    object: 'us_reverse_geocode_lookup',
  };
}
