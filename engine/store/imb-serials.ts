// Serial numbers of Intelligent Mail barcodes (migration 016), unique per Mailer ID for at least 45
// days, whatever number of engine processes allocate at once. One transaction per allocation holds the
// Mailer ID's cursor (a row lock on PostgreSQL; SQLite's transactions begin IMMEDIATE, so processes
// sharing the file take turns): the cursor walks the serial space in order, so the serial it points at
// is the one given longest ago, and it is given again only when that was over 45 days ago. A piece
// asking again (a re-render after a crash) gets its own serial back.
import type { Knex } from 'knex';

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

/** The piece's serial under `mailerId`: the one it was given, else the next free one. */
export async function allocateSerial(knex: Knex, request: SerialRequest): Promise<number> {
  const { mailerId, pieceId, digits } = request;
  const now = request.now ?? Date.now();
  const space = 10 ** digits;
  return knex.transaction(async (trx) => {
    const own = (await trx('imb_serials').where({ mailer_id: mailerId, piece_id: pieceId }).first('serial')) as
      SerialRow | undefined;
    if (own) {
      // given again: its 45 days count from now
      await trx('imb_serials').where({ mailer_id: mailerId, serial: own.serial }).update({ used_at: now });
      return Number(own.serial);
    }
    await trx('imb_serial_cursors').insert({ mailer_id: mailerId, next_serial: 0 }).onConflict('mailer_id').ignore();
    const cursorQuery = trx('imb_serial_cursors').where({ mailer_id: mailerId }).first('next_serial');
    const cursor = (await (trx.client.config.client === 'pg' ? cursorQuery.forUpdate() : cursorQuery)) as {
      next_serial: number | string;
    };
    const serial = Number(cursor.next_serial) % space;
    const previous = (await trx('imb_serials').where({ mailer_id: mailerId, serial }).first('piece_id', 'used_at')) as
      SerialRow | undefined;
    if (previous && now - Number(previous.used_at) < SERIAL_REUSE_MS) {
      throw new SerialsExhausted(
        `every ${digits}-digit serial number of Mailer ID ${mailerId} was given in the last 45 days ` +
          `(the next, ${serial}, to ${previous.piece_id}); USPS forbids repeating one sooner`,
      );
    }
    await trx('imb_serials')
      .insert({ mailer_id: mailerId, serial, piece_id: pieceId, used_at: now })
      .onConflict(['mailer_id', 'serial'])
      .merge({ piece_id: pieceId, used_at: now });
    await trx('imb_serial_cursors')
      .where({ mailer_id: mailerId })
      .update({ next_serial: (serial + 1) % space });
    return serial;
  });
}
