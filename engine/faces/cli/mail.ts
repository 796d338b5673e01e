// What `printpost track`, `simulate` and `reject` do, for the CLI: the same paths as a scan record in
// the inbox, `POST /v1/<kind>/{id}/simulate` and a print room's reply, answered as lines of text. The
// help of the mail commands (`order` too) is kept here, beside them.
import { parseArgs } from 'node:util';
import { findResource } from '../../catalog';
import { isSimulatedEvent, NORMAL_LIFE, SIMULATED_EVENTS } from '../../catalog/event-types';
import { ApiError, CommandRefused } from '../../base/errors';
import type { ObjectStore } from '../../store/objects';
import { isLifeStep, simulatePiece, type SimulateRequest } from '../../domain/production/simulate';
import { RETURN_ENVELOPE_TRACKING } from '../../domain/production/return-envelope';
import {
  recordScan,
  ScanRefused,
  trackingEventsIn,
  type ScanRecord,
  type TrackingEvent,
} from '../../domain/production/tracking';
import { rejectionOf, rejectPiece } from '../../domain/production/reject';
import { setOrderStatus } from '../../domain/inserts/orders';
import { UsageError, withServices } from './common';

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
  simulate: `Usage: printpost simulate PIECE_ID [--through STEP] [--event EVENT] [--details JSON] [--reason TEXT]

Moves a rendered TEST piece to production (nothing is printed) and through simulated tracking events,
Mailed, In Transit, In Local Area, Processed for Delivery and Delivered, up to STEP (mailed,
in_transit, in_local_area, processed_for_delivery or delivered; default delivered, or with --event the
step that event follows), then EVENT if given: ${SIMULATED_EVENTS.join(', ')}
(international_exit for a piece addressed abroad; pickup_available and issue for certified letters,
with --details '{"event":"notice_left",...}'; return_envelope.* for a letter with a return envelope;
rejected, with --reason, for a piece not mailed yet). Each is marked simulated and emits its webhook
event, as POST /v1/<kind>/PIECE_ID/simulate does; a story real mail cannot have (Delivered after
Returned to Sender, ...) and live pieces are refused.`,
  reject: `Usage: printpost reject PIECE_ID --reason TEXT

Records that the print room rejected a live piece in production (it will not be mailed), as a reply
file in PRINT_OUTBOX/replies would: the piece's rejection {reason, date_created} and its
<kind>.rejected event, which the workers of a running engine deliver. Prints the piece id, the time
and the reason. A piece rejected before is left as it was ("already rejected"); test pieces, pieces
not yet in production and cancelled ones are refused.`,
  order: `Usage: printpost order ORDER_ID printing|available|cancelled|depleted [--inventory N] [--reason TEXT]

Records what the print room did with a card (co_...) or buckslip (bo_...) order: printing, available
(printed; --inventory is how many, default all ordered: the insert's available stock), cancelled
(before it is available; --reason) or depleted (used up).`,
};

/** A command the database refuses (a piece unknown, a name wrong): one sentence for the operator. */

const line = (e: TrackingEvent, note = '') =>
  [e.id, e.name, e.time, e.location ?? '-', e.simulated ? 'simulated' : note].join('\t').trimEnd();

/** Records one scan; the line of its tracking event (`(already recorded)` for a repeat). */
export async function trackPiece(objects: ObjectStore, record: ScanRecord): Promise<string> {
  try {
    const tracked = await recordScan(objects, record);
    const text = line(tracked.event, record.return_envelope === true ? 'return envelope' : '');
    return tracked.duplicate ? `${text}\t(already recorded)` : text;
  } catch (error) {
    throw error instanceof ScanRefused ? new CommandRefused(error.message) : error;
  }
}

/** The arguments of `printpost simulate`, or undefined for a usage error. */
export function simulateArgs(args: string[]): { id: string; request: Record<string, string | undefined> } | undefined {
  const options = {
    through: { type: 'string' },
    event: { type: 'string' },
    details: { type: 'string' },
    reason: { type: 'string' },
  } as const;
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options });
  const [id, ...extra] = positionals;
  return id && extra.length === 0 ? { id, request: values } : undefined;
}

function simulateRequest(given: Record<string, string | undefined>): SimulateRequest {
  const { through, event, details, reason } = given;
  if (through !== undefined && !isLifeStep(through))
    throw new CommandRefused(`--through must be one of ${NORMAL_LIFE.join(', ')}`);
  if (event !== undefined && !isSimulatedEvent(event))
    throw new CommandRefused(`--event must be one of ${SIMULATED_EVENTS.join(', ')}`);
  let parsed: unknown;
  try {
    parsed = details === undefined ? undefined : JSON.parse(details);
  } catch {
    throw new CommandRefused('--details must be a JSON object');
  }
  if (parsed !== undefined && (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)))
    throw new CommandRefused('--details must be a JSON object');
  return { through, event, details: parsed as Record<string, unknown> | undefined, reason };
}

/** Simulates a test piece as asked; a line per tracking event (and its return envelope's, its rejection) it has then. */
export async function simulateById(
  objects: ObjectStore,
  id: string,
  given: Record<string, string | undefined> = {},
): Promise<string[]> {
  const request = simulateRequest(given);
  const where = await objects.locate(id);
  const resource = where && findResource(where.kind);
  if (!where || !resource?.mailpiece) throw new CommandRefused(`no mailpiece ${id}`);
  try {
    const piece = await simulatePiece(objects, where.scope, resource, id, request);
    const envelope = trackingEventsIn(piece, RETURN_ENVELOPE_TRACKING);
    const rejection = rejectionOf(piece);
    return [
      ...trackingEventsIn(piece, 'tracking_events').map((e) => line(e)),
      ...envelope.map((e) => `${line(e)}\treturn envelope`),
      ...(rejection ? [[id, rejection.date_created, 'rejected', rejection.reason].join('\t')] : []),
    ];
  } catch (error) {
    throw error instanceof ApiError ? new CommandRefused(error.message) : error;
  }
}

/** Rejects a live piece in production; its line (`(already rejected)` for a repeat). */
export async function rejectById(objects: ObjectStore, id: string, reason: string): Promise<string> {
  try {
    const rejected = await rejectPiece(objects, id, reason);
    const text = [id, rejected.rejection.date_created, rejected.rejection.reason].join('\t');
    return rejected.duplicate ? `${text}\t(already rejected)` : text;
  } catch (error) {
    throw error instanceof ScanRefused ? new CommandRefused(error.message) : error;
  }
}

export async function track(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      location: { type: 'string' },
      time: { type: 'string' },
      details: { type: 'string' },
      'return-envelope': { type: 'boolean' },
    },
  });
  const [pieceId, name, ...extra] = positionals;
  if (!pieceId || !name || extra.length > 0) throw new UsageError(MAIL_HELP.track);
  let details: Record<string, unknown> | undefined;
  try {
    details = values.details === undefined ? undefined : (JSON.parse(values.details) as Record<string, unknown>);
  } catch {
    throw new UsageError('--details must be a JSON object');
  }
  const record = {
    piece_id: pieceId,
    name,
    location: values.location,
    time: values.time,
    details,
    return_envelope: values['return-envelope'],
  };
  const out = await withServices((services) => trackPiece(services.objects, record));
  process.stdout.write(`${out}\n`);
}

export async function simulate(args: string[]): Promise<void> {
  const asked = simulateArgs(args);
  if (!asked) throw new UsageError(MAIL_HELP.simulate);
  const lines = await withServices((services) => simulateById(services.objects, asked.id, asked.request));
  process.stdout.write(lines.map((l) => `${l}\n`).join(''));
}

export async function reject(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
  const [pieceId, ...extra] = positionals;
  if (!pieceId || extra.length > 0 || !values.reason?.trim()) throw new UsageError(MAIL_HELP.reject);
  const reason = values.reason;
  const out = await withServices((services) => rejectById(services.objects, pieceId, reason));
  process.stdout.write(`${out}\n`);
}

export async function order(args: string[]): Promise<void> {
  const options = { inventory: { type: 'string' }, reason: { type: 'string' } } as const;
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options });
  const [id, status, ...extra] = positionals;
  const inventory = values.inventory === undefined ? undefined : Number(values.inventory);
  if (!id || !status || extra.length > 0 || Number.isNaN(inventory)) throw new UsageError(MAIL_HELP.order);
  const done = await withServices((s) => setOrderStatus(s.objects, id, status, { ...values, inventory }));
  process.stdout.write(`${done.id}\t${String(done.status)}\t${String(done.inventory)}\n`);
}
