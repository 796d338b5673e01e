// A carrier scan becomes a tracking event of its piece (docs/compat-notes.md, "Tracking events"): kept
// in the piece's `tracking_events` in time order, with its webhook event (`postcard.in_transit`, and
// for certified letters `letter.certified.in_transit`) in the same commit. Scans come from the print
// provider (the inbox), `printpost track`, or a simulation. Only pieces in production are tracked;
// test pieces only by simulation, registered letters never (spec). A record with `return_envelope:
// true` is a scan of a letter's return envelope instead (return-envelope.ts).
import { createHash } from 'node:crypto';
import { findResource } from '../../catalog';
import { isoInstant } from '../../catalog/dates';
import { CERTIFIED_EVENTS, TRACKING_EVENTS, TRACKING_NAMES, trackingAction } from '../../catalog/event-types';
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore } from '../../store/objects';
import { nowIso } from '../../base/time';
import { productionOf } from './claim';
import { certifiedDetails } from './certified-details';
import { RETURN_ENVELOPE_TRACKING, returnEnvelopeEventType } from './return-envelope';
import { ScanRefused } from './scan-refused';
import { isPlainObject } from '../../base/records';

export { ScanRefused } from './scan-refused';

/** A scan record as the inbox and `printpost track` take it (README, "Production and tracking"). */
export interface ScanRecord {
  piece_id: string;
  /** the tracking event's name: `In Transit`, `Delivered`, ... (any case) */
  name: string;
  /** a US ZIP; ignored for Mailed, which has none */
  location?: string | null;
  /** when it happened (ISO 8601); default now */
  time?: string;
  /** certified letters only: {event, description, notes?, action_required?} */
  details?: Record<string, unknown> | null;
  /** letters with a return envelope: the scan is of the envelope coming back, not of the letter */
  return_envelope?: boolean;
}

export interface TrackingEvent {
  id: string;
  type: 'normal' | 'certified';
  name: string;
  details: Record<string, unknown> | null;
  location: string | null;
  time: string;
  date_created: string;
  date_modified: string;
  object: 'tracking_event';
  /** only on events a simulation made (the engine's extension) */
  simulated?: true;
}

/** A tracking event as a piece keeps it (the engine wrote it: read back, its fields are checked). */
export const isTrackingEvent = (value: unknown): value is TrackingEvent =>
  isPlainObject(value) && typeof value.id === 'string' && typeof value.name === 'string';

/** The tracking events a piece keeps in `field`, oldest first. */
export const trackingEventsIn = (piece: ApiObject, field: string): TrackingEvent[] => {
  const kept = piece[field];
  return Array.isArray(kept) ? kept.filter(isTrackingEvent) : [];
};

export interface Tracked {
  piece: ApiObject;
  event: TrackingEvent;
  /** the same scan (piece, name, time, location) was recorded before: nothing changed */
  duplicate: boolean;
}

const ZIP = /^\d{5}(-\d{4})?$/;

/** Clocks of a print room and this engine may differ by this much. */
const FUTURE_SLACK_MS = 5 * 60_000;

/** The record checked field by field; a ScanRefused names the first field wrong. */
export function parseScan(input: unknown): ScanRecord {
  if (!isPlainObject(input))
    throw new ScanRefused('a scan record is a JSON object {piece_id, name, location?, time?, details?}');
  const r = input;
  if (typeof r.piece_id !== 'string' || r.piece_id === '') throw new ScanRefused('piece_id is required');
  if (typeof r.name !== 'string' || r.name.trim() === '') throw new ScanRefused('name is required');
  if (r.location !== undefined && r.location !== null && (typeof r.location !== 'string' || !ZIP.test(r.location)))
    throw new ScanRefused('location must be a ZIP code (94107 or 94107-1702)');
  if (r.time !== undefined && (typeof r.time !== 'string' || isoInstant(r.time) === undefined))
    throw new ScanRefused('time must be an ISO 8601 date-time');
  // a scan reports what happened: one dated ahead (a wrong clock, a typo) would sort after every real one
  if (typeof r.time === 'string' && (isoInstant(r.time) ?? 0) > Date.now() + FUTURE_SLACK_MS)
    throw new ScanRefused(`time ${r.time} is in the future`);
  if (r.details !== undefined && r.details !== null && (typeof r.details !== 'object' || Array.isArray(r.details)))
    throw new ScanRefused('details must be an object');
  if (r.return_envelope !== undefined && typeof r.return_envelope !== 'boolean')
    throw new ScanRefused('return_envelope must be true or false');
  return {
    piece_id: r.piece_id,
    name: r.name,
    location: r.location as string | null | undefined,
    time: r.time as string | undefined,
    details: r.details as Record<string, unknown> | null | undefined,
    return_envelope: r.return_envelope,
  };
}

const isCertified = (resource: Resource, piece: ApiObject) =>
  resource.name === 'letters' && typeof piece.extra_service === 'string' && piece.extra_service.startsWith('certified');

/** The webhook event type of `action` on this piece, or why the piece has no such tracking event. */
function eventTypeOf(resource: Resource, piece: ApiObject, action: string): string | undefined {
  const certified = isCertified(resource, piece);
  const known: readonly string[] = certified ? CERTIFIED_EVENTS : TRACKING_EVENTS;
  if (!known.includes(action))
    throw new ScanRefused(
      `${TRACKING_NAMES[action] ?? action} is not a tracking event of ${certified ? 'certified ' : ''}${resource.name.replace(/_/g, ' ')}`,
    );
  const type = `${resource.object}.${certified ? 'certified.' : ''}${action}`;
  // snap packs have no webhook events at all; any other kind declares each of its tracking events
  if (resource.events.length === 0) return undefined;
  if (!resource.events.includes(type))
    throw new ScanRefused(`${resource.name.replace(/_/g, ' ')} have no ${TRACKING_NAMES[action]} events`);
  return type;
}

/** The id of a scan: the same record read twice (a retry after a crash) is recognized and kept once. */
function scanId(pieceId: string, action: string, time: string, location: string | null): string {
  const digest = createHash('sha256')
    .update(`${pieceId}\n${action}\n${time}\n${location ?? ''}`)
    .digest('hex');
  return `evnt_${digest.slice(0, 24)}`;
}

/** The piece of a scan, with its scope and resource; refused when it may not be tracked. */
async function trackablePiece(objects: ObjectStore, record: ScanRecord, simulated: boolean) {
  const where = await objects.locate(record.piece_id);
  const resource = where && findResource(where.kind);
  if (!where || !resource?.mailpiece) throw new ScanRefused(`no mailpiece ${record.piece_id}`);
  const piece = await objects.get(where.scope, resource.name, record.piece_id);
  if (!piece) throw new ScanRefused(`${record.piece_id} was cancelled`);
  if (where.scope.mode === 'test' && !simulated)
    throw new ScanRefused(`${record.piece_id} is a test piece: test pieces get no tracking events (try simulate)`);
  if (!productionOf(piece)) throw new ScanRefused(`${record.piece_id} is not in production yet`);
  // the print room refused it: it was never mailed, so no scan of it (nor of its envelope) is real
  if (piece.rejection) throw new ScanRefused(`${record.piece_id} was rejected by the print room and not mailed`);
  // the return envelope is reply mail of its own, tracked whatever service carried the letter out
  if (piece.extra_service === 'registered' && record.return_envelope !== true)
    throw new ScanRefused('registered letters get no tracking events');
  return { scope: where.scope, resource, piece };
}

/** Records `input` on its piece; throws ScanRefused when it cannot be. */
export async function recordScan(
  objects: ObjectStore,
  input: unknown,
  options: { simulated?: boolean } = {},
): Promise<Tracked> {
  const record = parseScan(input);
  const simulated = options.simulated === true;
  const { scope, resource, piece } = await trackablePiece(objects, record, simulated);
  const action = trackingAction(record.name);
  const name = TRACKING_NAMES[action];
  if (!name) throw new ScanRefused(`${record.name} is not a tracking event name (In Transit, Delivered, ...)`);
  const envelope = record.return_envelope === true;
  const type = envelope ? returnEnvelopeEventType(resource, piece, action) : eventTypeOf(resource, piece, action);
  const field = envelope ? RETURN_ENVELOPE_TRACKING : 'tracking_events';
  const now = nowIso();
  const time = new Date(isoInstant(record.time ?? now) ?? Date.now()).toISOString();
  // spec: Mailed has no location
  const location = action === 'mailed' ? null : (record.location ?? null);
  // a return envelope is plain reply mail, even when the letter went out certified
  const certified = !envelope && isCertified(resource, piece);
  const event: TrackingEvent = {
    id: scanId(piece.id, envelope ? `return_envelope.${action}` : action, time, location),
    type: certified ? 'certified' : 'normal',
    name,
    details: certified ? certifiedDetails(action, record.details) : null,
    location,
    time,
    date_created: now,
    date_modified: now,
    object: 'tracking_event',
    ...(simulated ? { simulated: true as const } : {}),
  };
  const recorded = (current: ApiObject) => trackingEventsIn(current, field);
  try {
    const next = await objects.transition(scope, resource.name, piece.id, {
      refuse: (current) => (recorded(current).some((e) => e.id === event.id) ? new AlreadyRecorded() : undefined),
      change: (current) => ({ ...current, [field]: inTimeOrder([...recorded(current), event]) }),
      events: type ? [{ type, resource: resource.name }] : undefined,
    });
    if (!next) throw new ScanRefused(`${record.piece_id} was cancelled`);
    return { piece: next, event, duplicate: false };
  } catch (error) {
    if (!(error instanceof AlreadyRecorded)) throw error;
    const current = (await objects.get(scope, resource.name, piece.id)) ?? piece;
    return { piece: current, event: recorded(current).find((e) => e.id === event.id) ?? event, duplicate: true };
  }
}

class AlreadyRecorded extends Error {}

/** Oldest first; events of the same time keep the order they were recorded in. */
function inTimeOrder(events: TrackingEvent[]): TrackingEvent[] {
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => Date.parse(a.e.time) - Date.parse(b.e.time) || a.i - b.i)
    .map(({ e }) => e);
}
