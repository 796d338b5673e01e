// POST /v1/us_reverse_geocode_lookups (issue 46): the ZIPs nearest a point from the bundled ZIP
// database, nearest first, `size` 1 to 50 (default 5), in the vendor's shape, on both databases.
import test from 'ava';
import { startEngine, type TestEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { vendorResponseErrors } from '../../helpers/vendorSchema';

const engines = new Map<string, Promise<TestEngine>>();
test.after.always(async () => {
  for (const e of engines.values()) await (await e).close();
});

const PATH = '/v1/us_reverse_geocode_lookups';
const CIVIC_CENTER = { latitude: 37.7793, longitude: -122.4193 };

for (const db of DATABASES) {
  const api = async () => {
    if (!engines.has(db)) engines.set(db, startEngine({ db }));
    const engine = await engines.get(db)!;
    return client(engine.url, engine.keys.test);
  };

  test(`${db}: reverse geocode answers the nearest ZIPs first, with their distance, in the vendor's shape`, async (t) => {
    const call = await api();
    const reply = await call('POST', `${PATH}?size=3`, { json: CIVIC_CENTER });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.is(reply.body.object, 'us_reverse_geocode_lookup');
    t.regex(reply.body.id, /^us_reverse_geocode_/);
    const found = reply.body.addresses as {
      components: { zip_code: string };
      location_analysis: { distance: number };
    }[];
    t.is(found.length, 3);
    t.true(
      found.every((a) => a.components.zip_code.startsWith('941')),
      JSON.stringify(found),
    );
    const distances = found.map((a) => a.location_analysis.distance);
    t.deepEqual(
      distances,
      [...distances].sort((a, b) => a - b),
      'nearest first',
    );
    t.true(distances[0] < 1, `the nearest ZIP's centre is within a mile (${distances[0]})`);
    // the one deviation, as in every live verification: no ZIP+4 data, so the add-on is empty
    t.deepEqual(
      vendorResponseErrors('POST', PATH, 200, reply.body).filter((e) => !/zip_code_plus_4 must match/.test(e)),
      [],
    );
    const byDefault = await call('POST', PATH, { json: CIVIC_CENTER });
    t.is(byDefault.body.addresses.length, 5, 'size defaults to 5');
    const form = await call('POST', PATH, { form: 'latitude=40.7506&longitude=-73.9935' });
    t.is(form.status, 200);
    t.regex(form.body.addresses[0].components.zip_code, /^10[01]/, 'a form body, in Manhattan');
  });

  test(`${db}: reverse geocode refuses a size outside 1-50 and a point off the globe with 422`, async (t) => {
    const call = await api();
    for (const [path, body] of [
      [`${PATH}?size=51`, CIVIC_CENTER],
      [`${PATH}?size=0`, CIVIC_CENTER],
      [PATH, { latitude: 91, longitude: 0 }],
      [PATH, { latitude: 37.7 }],
    ] as const) {
      const reply = await call('POST', path, { json: body });
      t.is(reply.status, 422, `${path} ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
      t.truthy(reply.body.error?.message);
    }
  });
}
