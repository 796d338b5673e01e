// US reverse geocode lookups (the vendor's `POST /v1/us_reverse_geocode_lookups`): the ZIP codes
// nearest a point, with their distance, from the bundled ZIP database. Nothing is stored.
import { Type, type Static } from '@sinclair/typebox';
import { defineResource } from './resource';
import { operation } from './operation';
import { objectName } from './fields';

export const reverseGeocodeBody = () =>
  Type.Object({
    latitude: Type.Number({ minimum: -90, maximum: 90, description: 'Latitude, -90 to 90.', examples: [37.7749] }),
    longitude: Type.Number({
      minimum: -180,
      maximum: 180,
      description: 'Longitude, -180 to 180.',
      examples: [-122.4194],
    }),
  });

export const reverseGeocodeQuery = () =>
  Type.Object({
    size: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'How many ZIP codes, 1 to 50.', examples: [5] }),
    ),
  });

export const reverseGeocodeObject = () =>
  Type.Object({
    id: Type.String({
      pattern: '^us_reverse_geocode_[a-zA-Z0-9_]+$',
      description: 'Unique identifier prefixed with `us_reverse_geocode_`.',
    }),
    addresses: Type.Array(
      Type.Object({
        components: Type.Object({
          zip_code: Type.String({ pattern: '^\\d{5}$', description: '5-digit ZIP code.' }),
          zip_code_plus_4: Type.String({
            pattern: '^(\\d{4})?$',
            description: 'ZIP+4 add-on; empty: the engine has no ZIP+4 data.',
          }),
        }),
        location_analysis: Type.Object({
          latitude: Type.Number({ description: "The ZIP's centre." }),
          longitude: Type.Number({ description: "The ZIP's centre." }),
          distance: Type.Number({ description: 'Miles from the point asked to the centre, 2 decimals.' }),
        }),
      }),
      { description: 'The ZIP codes nearest the point, nearest first.' },
    ),
    object: objectName('us_reverse_geocode_lookup'),
  });

export type ReverseGeocodeLookup = Static<ReturnType<typeof reverseGeocodeObject>>;

const SAMPLE: ReverseGeocodeLookup = {
  id: 'us_reverse_geocode_8a013f3e',
  addresses: [
    {
      components: { zip_code: '94102', zip_code_plus_4: '' },
      location_analysis: { latitude: 37.7793, longitude: -122.4193, distance: 0.31 },
    },
  ],
  object: 'us_reverse_geocode_lookup',
};

export const reverseGeocodeOperations = {
  lookup: operation({
    name: 'lookup',
    method: 'POST',
    path: '/v1/us_reverse_geocode_lookups',
    summary: 'Reverse geocode a point to its nearest US ZIP codes',
    body: reverseGeocodeBody(),
    query: reverseGeocodeQuery(),
    response: 'object',
  }),
};

export const usReverseGeocodeLookups = defineResource({
  name: 'us_reverse_geocode_lookups',
  title: 'US reverse geocode lookup',
  object: 'us_reverse_geocode_lookup',
  idPrefix: 'us_reverse_geocode',
  description:
    "The ZIP codes nearest a latitude and longitude, nearest first, with their distance in miles to each ZIP's centre, from the bundled ZIP database (test and live keys alike). No ZIP+4s: the engine has no USPS delivery data.",
  schema: reverseGeocodeObject(),
  operations: Object.values(reverseGeocodeOperations),
  events: [],
  sample: SAMPLE,
});
