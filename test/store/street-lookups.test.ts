// The street lookup each live verification in a covered ZIP runs: the same rows on SQLite and
// PostgreSQL, and on PostgreSQL a named statement kept on the connection (planned once and then
// generically, instead of half a millisecond of planning on every call).
import test from 'ava';
import { connect } from '../../engine/store/connection';
import { openStoreOn } from '../../engine/store/store';
import { freshDatabase, type Db } from '../helpers/engine';
import { DATABASES } from '../helpers/matrix';

const LOAD = { kind: 'tiger_addrfeat', source: '06075', file: 'tl_2024_06075_addrfeat.zip' } as const;
const SEGMENT = {
  zip: '94107',
  street_key: '|BERRY|ST|',
  l_from: 101,
  l_to: 199,
  l_parity: 'O',
  r_from: 100,
  r_to: 198,
  r_parity: 'E',
  coords: '-122.4,37.77 -122.39,37.776',
  county_fips: '06075',
};
const POINT = { zip: '94107', street_key: '|BERRY|ST|', number: '185', unit: 'APT 1', lon: -122.3955, lat: 37.7765 };

for (const db of DATABASES) {
  test(`${db}: a street's ranges and points come back from one lookup, as often as it is asked`, async (t) => {
    const database = await freshDatabase(db as Db);
    // one connection: what the lookup prepared on it is what the check below sees
    const connection = connect(database.url, 1);
    const store = await openStoreOn(connection);
    t.teardown(async () => {
      await store.close();
      await database.drop();
    });
    const streets = store.streets;
    await streets.beginLoad({ id: 'load_1', ...LOAD, startedAt: new Date().toISOString() });
    await streets.insertLoadBatch('load_1', {
      segments: [SEGMENT],
      points: [POINT],
      names: [{ zip: '94107', street_key: '|BERRY|ST|' }],
      zips: ['94107'],
    });
    await streets.activateLoad('load_1', {
      rows: 2,
      skipped: 0,
      skippedReasons: {},
      loadedAt: new Date().toISOString(),
      seconds: 1,
    });
    for (let i = 0; i < 8; i++) {
      const found = await streets.streetOf('94107', '|BERRY|ST|');
      t.is(found.segments.length, 1);
      t.like(found.segments[0], { l_from: 101, r_to: 198, r_parity: 'E', county_fips: '06075' });
      t.deepEqual(found.points, [POINT]);
    }
    t.deepEqual(await streets.streetOf('94107', '|NONE|ST|'), { segments: [], points: [] });
    if (db !== 'postgres') return;
    const { rows } = (await connection.knex.raw(
      "select name, generic_plans from pg_prepared_statements where name like 'printpost_street_of_%'",
    )) as { rows: { name: string; generic_plans: number | string }[] };
    t.is(rows.length, 1, 'PostgreSQL keeps the street lookup prepared on the connection');
    t.true(Number(rows[0].generic_plans) > 0, 'and, after a few runs, reuses a generic plan instead of planning anew');
  });
}
