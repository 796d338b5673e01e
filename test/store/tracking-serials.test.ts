// Serials of letters' tracking numbers from the database (migration 022): drawn in order and never
// twice whatever number of connections draw at once, each series apart, a new range starting at its
// first serial, and a used-up range refused without moving its counter.
import test from 'ava';
import { connect } from '../../engine/store/connection';
import { migrateLatest } from '../../engine/store/migrate';
import { drawSerial, SerialRangeUsedUp } from '../../engine/store/tracking-serials';
import type { Db } from '../helpers/engine';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

for (const db of DATABASES) {
  test(`${db}: serials drawn at once through two connections are all different, in order, none skipped`, async (t) => {
    const { knex, url } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    // a second connection to the same database, as a second engine process holds
    const other = connect(url).knex;
    t.teardown(() => other.destroy());
    const range = { series: 's10:RA', first: 500, last: 10_000 };
    const serials = await Promise.all(Array.from({ length: 120 }, (_, n) => drawSerial(n % 2 ? other : knex, range)));
    t.deepEqual(
      [...serials].sort((a, b) => a - b),
      Array.from({ length: 120 }, (_, n) => 500 + n),
    );
    t.is(await drawSerial(knex, { series: 'impb:123456', first: 0, last: 99 }), 0, 'another series counts apart');
  });

  test(`${db}: a used-up range is refused and stays so; a new range starts at its first, never below the counter`, async (t) => {
    const { knex } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    const range = { series: 's10:RR', first: 7, last: 8 };
    t.is(await drawSerial(knex, range), 7);
    t.is(await drawSerial(knex, range), 8);
    const refused = await t.throwsAsync(drawSerial(knex, range), { instanceOf: SerialRangeUsedUp });
    t.regex(refused!.message, /s10:RR up to 8/);
    await t.throwsAsync(drawSerial(knex, range), { instanceOf: SerialRangeUsedUp });
    t.is(await drawSerial(knex, { ...range, first: 100, last: 200 }), 100, 'the new range USPS assigned');
    t.is(await drawSerial(knex, { ...range, first: 0, last: 200 }), 101, 'a range reaching back gives nothing twice');
  });
}
