// IMb serial numbers from the database (migration 016): unique per Mailer ID whatever number of
// connections allocate at once, the same one again for the same piece, and never repeated within
// USPS's 45 days: a Mailer ID whose every serial is that recent is refused with a clear error.
import test from 'ava';
import { connect } from '../../engine/store/connection';
import { migrateLatest } from '../../engine/store/migrate';
import { allocateSerial, SERIAL_REUSE_MS, SerialsExhausted } from '../../engine/store/imb-serials';
import type { Db } from '../helpers/engine';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

for (const db of DATABASES) {
  test(`${db}: serials allocated at once through two connections are all different; a piece asking again gets its own`, async (t) => {
    const { knex, url } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    // a second connection to the same database, as a second engine process holds
    const other = connect(url).knex;
    t.teardown(() => other.destroy());
    const ask = (n: number) =>
      allocateSerial(n % 2 ? other : knex, { mailerId: '123456', pieceId: `psc_${n}`, digits: 9 });
    const serials = await Promise.all(Array.from({ length: 120 }, (_, n) => ask(n)));
    t.is(new Set(serials).size, 120);
    t.deepEqual(
      [...serials].sort((a, b) => a - b),
      Array.from({ length: 120 }, (_, n) => n),
      'handed out in order, none skipped',
    );
    t.is(await ask(7), serials[7], 'a re-render gets the same serial');
    t.is(await ask(7 + 1000), 120, 'the next piece the next serial');
    // another Mailer ID counts apart
    t.is(await allocateSerial(knex, { mailerId: '912345678', pieceId: 'psc_0', digits: 6 }), 0);
  });

  test(`${db}: a serial comes round again only once its last use is 45 days old; before that, exhaustion is an error`, async (t) => {
    const { knex } = await freshStore(t, db as Db);
    await migrateLatest(knex);
    const start = Date.now();
    // one serial digit: ten serials in the space
    const ask = (piece: string, now: number) =>
      allocateSerial(knex, { mailerId: '123456', pieceId: piece, digits: 1, now });
    for (let n = 0; n < 10; n++) t.is(await ask(`psc_${n}`, start + n), n);
    const refused = await t.throwsAsync(ask('psc_10', start + SERIAL_REUSE_MS - 1), { instanceOf: SerialsExhausted });
    t.regex(refused!.message, /Mailer ID 123456 was given in the last 45 days/);
    t.is(await ask('psc_3', start + SERIAL_REUSE_MS), 3, 'a piece given one keeps it, and its 45 days start again');
    t.is(await ask('psc_10', start + SERIAL_REUSE_MS), 0, 'the oldest serial, 45 days on');
    t.is(await ask('psc_11', start + SERIAL_REUSE_MS + 1), 1);
    t.is(await ask('psc_12', start + SERIAL_REUSE_MS + 2), 2);
    // serial 3 was given again (to psc_3) 45 days on: not yet free
    await t.throwsAsync(ask('psc_13', start + SERIAL_REUSE_MS + 3), { instanceOf: SerialsExhausted });
  });
}
