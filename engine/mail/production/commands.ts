// What `printpost track`, `simulate` and `reject` do, for the CLI: the same paths as a scan record in
// the inbox, `POST /v1/<kind>/{id}/simulate` and a print room's reply, answered as lines of text.
import { findResource } from '../../catalog';
import { NORMAL_LIFE } from '../../catalog/event-types';
import { ApiError } from '../../errors';
import type { ObjectStore } from '../../store/objects';
import { isLifeStep, simulatePiece } from './simulate';
import { recordScan, ScanRefused, type ScanRecord, type TrackingEvent } from './tracking';
import { rejectPiece } from './reject';

/** The commands' `--help`, beside what they do. */
export const MAIL_HELP = {
  track: `Usage: printpost track PIECE_ID NAME [--location ZIP] [--time ISO] [--details JSON] [--return-envelope]

Records a carrier scan of a live piece in production as a tracking event, as a scan record dropped
into TRACKING_INBOX would, and prints it (id, name, time, location). NAME is Mailed, "In Transit",
"In Local Area", "Processed for Delivery", Delivered, Re-Routed, "Returned to Sender" or
"International Exit"; certified letters also take "Pickup Available" and Issue, and --details
'{"event":"notice_left","description":"...","action_required":true}'. Test pieces and registered
letters get no tracking events. With --return-envelope the scan is of a letter's return envelope on
its way back ("In Transit", "In Local Area", "Processed for Delivery", Re-Routed or "Returned to
Sender"; letter.return_envelope.* events). The workers of a running engine deliver its webhook event.`,
  simulate: `Usage: printpost simulate PIECE_ID [--through STEP]

Moves a rendered TEST piece to production (nothing is printed) and through simulated tracking events,
Mailed, In Transit, In Local Area, Processed for Delivery and Delivered, up to STEP (mailed,
in_transit, in_local_area, processed_for_delivery or delivered; default delivered), each marked
simulated and emitting its webhook event, as POST /v1/<kind>/PIECE_ID/simulate does. Live pieces are
refused.`,
  reject: `Usage: printpost reject PIECE_ID --reason TEXT

Records that the print room rejected a live piece in production (it will not be mailed), as a reply
file in PRINT_OUTBOX/replies would: the piece's rejection {reason, date_created} and its
<kind>.rejected event, which the workers of a running engine deliver. Prints the piece id, the time
and the reason. A piece rejected before is left as it was ("already rejected"); test pieces, pieces
not yet in production and cancelled ones are refused.`,
};

/** A command the database refuses (a piece unknown, a name wrong): one sentence for the operator. */
export class MailCommandError extends Error {}

const line = (e: TrackingEvent, note = '') =>
  [e.id, e.name, e.time, e.location ?? '-', e.simulated ? 'simulated' : note].join('\t').trimEnd();

/** Records one scan; the line of its tracking event (`(already recorded)` for a repeat). */
export async function trackPiece(objects: ObjectStore, record: ScanRecord): Promise<string> {
  try {
    const tracked = await recordScan(objects, record);
    const text = line(tracked.event, record.return_envelope === true ? 'return envelope' : '');
    return tracked.duplicate ? `${text}\t(already recorded)` : text;
  } catch (error) {
    throw error instanceof ScanRefused ? new MailCommandError(error.message) : error;
  }
}

/** Simulates a test piece through `through`; a line per tracking event it has then. */
export async function simulateById(objects: ObjectStore, id: string, through = 'delivered'): Promise<string[]> {
  if (!isLifeStep(through)) throw new MailCommandError(`--through must be one of ${NORMAL_LIFE.join(', ')}`);
  const where = await objects.locate(id);
  const resource = where && findResource(where.kind);
  if (!where || !resource?.mailpiece) throw new MailCommandError(`no mailpiece ${id}`);
  try {
    const piece = await simulatePiece(objects, where.scope, resource, id, through);
    return ((piece.tracking_events ?? []) as TrackingEvent[]).map((e) => line(e));
  } catch (error) {
    throw error instanceof ApiError ? new MailCommandError(error.message) : error;
  }
}

/** Rejects a live piece in production; its line (`(already rejected)` for a repeat). */
export async function rejectById(objects: ObjectStore, id: string, reason: string): Promise<string> {
  try {
    const rejected = await rejectPiece(objects, id, reason);
    const text = [id, rejected.rejection.date_created, rejected.rejection.reason].join('\t');
    return rejected.duplicate ? `${text}\t(already rejected)` : text;
  } catch (error) {
    throw error instanceof ScanRefused ? new MailCommandError(error.message) : error;
  }
}
