// What `printpost track` and `printpost simulate` do, for the CLI: the same paths as a scan record
// in the inbox and as `POST /v1/<kind>/{id}/simulate`, answered as lines of text.
import { findResource } from '../../catalog';
import { NORMAL_LIFE } from '../../catalog/event-types';
import { ApiError } from '../../errors';
import type { ObjectStore } from '../../store/objects';
import { isLifeStep, simulatePiece } from './simulate';
import { recordScan, ScanRefused, type ScanRecord, type TrackingEvent } from './tracking';

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
