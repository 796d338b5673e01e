// Request bodies shared by the load benchmarks.
// Creates cycle through varied real addresses, so no cache or repeated input flatters the figure.
const PLACES: [string, string | null, string, string, string][] = [
  ['210 King Street', 'Suite 6100', 'San Francisco', 'CA', '94107'],
  ['1600 Pennsylvania Avenue NW', null, 'Washington', 'DC', '20500'],
  ['350 Fifth Avenue', 'Floor 34', 'New York', 'NY', '10118'],
  ['1 Telegraph Hill Blvd', null, 'San Francisco', 'california', '94133'],
  ['233 S. Wacker Dr.', 'ste 3530', 'Chicago', 'IL', '60606'],
  ['600 Montgomery St', null, 'San Francisco', 'CA', '94111-2702'],
  ['PO Box 720114', null, 'San Francisco', 'CA', '94172'],
  ['400 Broad St', null, 'Seattle', 'WA', '98109'],
  ['1 Infinite Loop', null, 'Cupertino', 'CA', '95014'],
  ['11 Wall Street', null, 'New York', 'new york', '10005'],
  ['100 Universal City Plaza', null, 'Universal City', 'CA', '91608'],
  ['2 15th St NW', null, 'Washington', 'DC', '20024'],
];
export const ADDRESS_BODIES = PLACES.map(([line1, line2, city, state, zip], i) =>
  JSON.stringify({
    name: `Customer ${i}`,
    address_line1: line1,
    address_line2: line2,
    address_city: city,
    address_state: state,
    address_zip: zip,
    metadata: { campaign: 'bench' },
  }),
);

// Postcards to the same places from inline addresses, with HTML artwork and merge variables.
const SENDER = {
  name: 'Printpost',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
export const POSTCARD_BODIES = ADDRESS_BODIES.map((address, i) =>
  JSON.stringify({
    to: JSON.parse(address),
    from: SENDER,
    front: '<html><body><h1>Hello {{name}}</h1><p>Your code: {{code}}</p></body></html>',
    back: '<html><body><p>See you soon, {{name}}.</p></body></html>',
    merge_variables: { name: `Customer ${i}`, code: `SPRING-${i}` },
    use_type: 'marketing',
    metadata: { campaign: 'bench' },
  }),
);
