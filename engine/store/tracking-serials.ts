// Serials of letters' tracking numbers (migration 022), one counter per series, drawn in order and
// never twice, whatever number of engine processes draw at once: one transaction per draw holds the
// series' row (a row lock on PostgreSQL; SQLite's transactions begin IMMEDIATE, so processes sharing
// the file take turns). A draw past the series' last serial is refused and moves nothing.
import type { Knex } from 'knex';
import { syncTransaction } from './sqlite-sync';

export class SerialRangeUsedUp extends Error {}

export interface SerialDraw {
  /** `impb:<Mailer ID>`, `s10:<service indicator>` */
  series: string;
  /** the range serials are drawn from, both ends included */
  first: number;
  last: number;
}

function queries(knex: Knex, { series, first }: SerialDraw) {
  return {
    open: () => knex('tracking_serials').insert({ series, next_serial: first }).onConflict('series').ignore(),
    next: () => knex('tracking_serials').where({ series }).select('next_serial'),
    advance: (serial: number) =>
      knex('tracking_serials')
        .where({ series })
        .update({ next_serial: serial + 1 }),
  };
}

/** The serial under the counter, or the range's first when the counter is below it (a new range). */
function serialAt(draw: SerialDraw, next: number | string): number {
  const serial = Math.max(Number(next), draw.first);
  if (serial > draw.last)
    throw new SerialRangeUsedUp(`every serial of ${draw.series} up to ${draw.last} has been given`);
  return serial;
}

/**
 * The next serial of a series. On SQLite one synchronous IMMEDIATE transaction, so it never holds the
 * file's write lock across a turn of the event loop.
 */
export async function drawSerial(knex: Knex, draw: SerialDraw): Promise<number> {
  if (knex.client.config.client !== 'pg') {
    const q = queries(knex, draw);
    return syncTransaction(knex, (db) => {
      db.change(q.open());
      const serial = serialAt(draw, db.rows<{ next_serial: number }>(q.next())[0].next_serial);
      db.change(q.advance(serial));
      return serial;
    });
  }
  return knex.transaction(async (trx) => {
    const q = queries(trx, draw);
    await q.open();
    // the series' row lock: draws of one series take turns, in any number of processes
    const rows: { next_serial: number | string }[] = await q.next().forUpdate();
    const [row] = rows;
    const serial = serialAt(draw, row.next_serial);
    await q.advance(serial);
    return serial;
  });
}
