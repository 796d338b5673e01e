// Serial numbers of Intelligent Mail barcodes (migration 016), unique per Mailer ID for at least 45
// days, whatever number of engine processes allocate at once. One transaction per allocation holds the
// Mailer ID's cursor (a row lock on PostgreSQL; SQLite's transactions begin IMMEDIATE, so processes
// sharing the file take turns): the cursor walks the serial space in order, so the serial it points at
// is the one given longest ago, and it is given again only when that was over 45 days ago. A piece
// asking again (a re-render after a crash) gets its own serial back.
import type { Knex } from 'knex';
import { syncTransaction } from './sqlite-sync';

/** USPS: a serial may not repeat within 45 days for one Mailer ID. */
export const SERIAL_REUSE_MS = 45 * 24 * 60 * 60 * 1000;

export class SerialsExhausted extends Error {}

export interface SerialRequest {
  mailerId: string;
  pieceId: string;
  /** serial digits the Mailer ID leaves: 9 for a 6-digit MID, 6 for a 9-digit one */
  digits: number;
  /** epoch ms (tests move it) */
  now?: number;
}

interface SerialRow {
  serial: number | string;
  piece_id: string;
  used_at: number | string;
}

/** The queries of one allocation, built by Knex once for both databases. */
function queries(knex: Knex, { mailerId, pieceId }: SerialRequest) {
  return {
    own: () => knex('imb_serials').where({ mailer_id: mailerId, piece_id: pieceId }).select('serial'),
    touch: (serial: number, now: number) =>
      knex('imb_serials').where({ mailer_id: mailerId, serial }).update({ used_at: now }),
    openCursor: () =>
      knex('imb_serial_cursors').insert({ mailer_id: mailerId, next_serial: 0 }).onConflict('mailer_id').ignore(),
    cursor: () => knex('imb_serial_cursors').where({ mailer_id: mailerId }).select('next_serial'),
    previous: (serial: number) =>
      knex('imb_serials').where({ mailer_id: mailerId, serial }).select('piece_id', 'used_at'),
    take: (serial: number, now: number) =>
      knex('imb_serials')
        .insert({ mailer_id: mailerId, serial, piece_id: pieceId, used_at: now })
        .onConflict(['mailer_id', 'serial'])
        .merge({ piece_id: pieceId, used_at: now }),
    advance: (serial: number, space: number) =>
      knex('imb_serial_cursors')
        .where({ mailer_id: mailerId })
        .update({ next_serial: (serial + 1) % space }),
  };
}

/** The cursor's serial may be given unless its last use is within 45 days. */
function refuseRecent(request: SerialRequest, serial: number, previous: SerialRow | undefined, now: number): void {
  if (previous && now - Number(previous.used_at) < SERIAL_REUSE_MS)
    throw new SerialsExhausted(
      `every ${request.digits}-digit serial number of Mailer ID ${request.mailerId} was given in the last 45 days ` +
        `(the next, ${serial}, to ${previous.piece_id}); USPS forbids repeating one sooner`,
    );
}

/**
 * The piece's serial under `mailerId`: the one it was given (its 45 days then count again from now),
 * else the next in the cursor's order. On SQLite one synchronous IMMEDIATE transaction, so it never
 * holds the file's write lock across a turn of the event loop (another engine in the same process
 * would wait on it synchronously and never let it finish).
 */
export async function allocateSerial(knex: Knex, request: SerialRequest): Promise<number> {
  const now = request.now ?? Date.now();
  const space = 10 ** request.digits;
  if (knex.client.config.client !== 'pg') {
    const q = queries(knex, request);
    return syncTransaction(knex, (db) => {
      const [own] = db.rows<SerialRow>(q.own());
      if (own) {
        db.change(q.touch(Number(own.serial), now));
        return Number(own.serial);
      }
      db.change(q.openCursor());
      const serial = Number(db.rows<{ next_serial: number }>(q.cursor())[0].next_serial) % space;
      refuseRecent(request, serial, db.rows<SerialRow>(q.previous(serial))[0], now);
      db.change(q.take(serial, now));
      db.change(q.advance(serial, space));
      return serial;
    });
  }
  return knex.transaction(async (trx) => {
    const q = queries(trx, request);
    const [own] = (await q.own()) as SerialRow[];
    if (own) {
      await q.touch(Number(own.serial), now);
      return Number(own.serial);
    }
    await q.openCursor();
    // the cursor's row lock: allocations of one Mailer ID take turns, in any number of processes
    const [cursor] = (await q.cursor().forUpdate()) as { next_serial: number | string }[];
    const serial = Number(cursor.next_serial) % space;
    refuseRecent(request, serial, ((await q.previous(serial)) as SerialRow[])[0], now);
    await q.take(serial, now);
    await q.advance(serial, space);
    return serial;
  });
}
