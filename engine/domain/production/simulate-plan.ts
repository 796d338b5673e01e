// What a simulate request makes of a test piece as it is now (README, "Trying it with test keys"): the
// scans to record, in order, or a rejection. A story that could not happen to real mail is refused
// before the piece moves at all: Delivered after Returned to Sender, Pickup Available on a letter
// that is not certified, a return envelope the letter was sent without, a rejection of mail already
// mailed. Each event is made once: asking for one the piece has changes nothing.
import { isAbroad } from '../../catalog/mailpieces/rules';
import {
  NORMAL_LIFE,
  RETURN_ENVELOPE_EVENTS,
  TRACKING_NAMES,
  trackingAction,
  type LifeStep,
  type SimulatedEvent,
} from '../../catalog/event-types';
import type { Resource } from '../../catalog/types';
import { ApiError } from '../../base/errors';
import type { ApiObject } from '../../store/objects';
import { RETURN_ENVELOPE_TRACKING } from './return-envelope';
import { isPlainObject } from '../../base/records';

export interface SimulateRequest {
  through?: LifeStep;
  event?: SimulatedEvent;
  /** a certified letter's details of `event` */
  details?: Record<string, unknown>;
  /** the rejection's reason, with event `rejected` */
  reason?: string;
}

/** One scan to record: an action of the letter's life or, with `envelope`, of its return envelope. */
export interface PlannedScan {
  action: string;
  envelope: boolean;
  details?: Record<string, unknown>;
}

export type Plan = { scans: PlannedScan[] } | { reject: string };

/** Where a piece's own life ends: nothing of it comes after these. */
const ENDINGS = ['delivered', 'returned_to_sender', 'international_exit'];

/** The normal-life step an exception follows when `through` does not say. */
const FOLLOWS: Readonly<Record<string, LifeStep>> = {
  're-routed': 'in_transit',
  returned_to_sender: 'in_local_area',
  international_exit: 'in_transit',
  pickup_available: 'processed_for_delivery',
  issue: 'in_transit',
};

/** A return envelope's own normal life (it has no Mailed nor Delivered). */
const ENVELOPE_LIFE = RETURN_ENVELOPE_EVENTS.slice(0, 3) as readonly string[];

const refuse = (message: string) => new ApiError('invalid', message, 422);
const name = (action: string) => TRACKING_NAMES[action] ?? action;

const actionsOf = (piece: ApiObject, field: string): string[] => {
  const kept = piece[field];
  return (Array.isArray(kept) ? kept.filter(isPlainObject) : []).map((e) => trackingAction(String(e.name)));
};

const isCertified = (piece: ApiObject) =>
  typeof piece.extra_service === 'string' && piece.extra_service.startsWith('certified');

/** Whether the kind has events of `event` at all (snap packs, without events, take the plain exceptions). */
function kindTakes(resource: Resource, event: string): boolean {
  if (event === 'rejected') return true;
  if (resource.events.length === 0) return ['re-routed', 'returned_to_sender', 'international_exit'].includes(event);
  return [`${resource.object}.${event}`, `${resource.object}.certified.${event}`].some((t) =>
    resource.events.includes(t),
  );
}

/** The scans of the piece's normal life it lacks, up to `through`; refused once its life has ended. */
function lifeUpTo(through: LifeStep, had: string[], next: string): PlannedScan[] {
  const missing = NORMAL_LIFE.slice(0, NORMAL_LIFE.indexOf(through) + 1).filter((s) => !had.includes(s));
  const ended = had.find((a) => ENDINGS.includes(a));
  if (missing.length > 0 && ended && ended !== 'delivered')
    throw refuse(`${name(missing[missing.length - 1])} cannot follow ${name(ended)}`);
  if (ended && next && !had.includes(next)) throw refuse(`${name(next)} cannot follow ${name(ended)}`);
  return missing.map((action) => ({ action, envelope: false }));
}

export function planSimulation(resource: Resource, piece: ApiObject, request: SimulateRequest): Plan {
  const { through, event, details, reason } = request;
  const what = resource.title.toLowerCase();
  if (event && !kindTakes(resource, event)) throw refuse(`${resource.name.replace(/_/g, ' ')} have no ${event} events`);
  if (reason !== undefined && event !== 'rejected') throw refuse('reason goes with event rejected');
  if (details !== undefined && (!event || event === 'rejected' || event.startsWith('return_envelope.')))
    throw refuse("details are a certified letter's tracking details: they go with an event of its own");
  if (details !== undefined && !isCertified(piece)) throw refuse(`details are for certified letters only`);
  const had = actionsOf(piece, 'tracking_events');
  const envelopeHad = actionsOf(piece, RETURN_ENVELOPE_TRACKING);
  if (piece.rejection) {
    if (event === 'rejected') return { scans: [] };
    throw refuse(`${piece.id} was rejected by the print room and not mailed`);
  }
  if (event === 'rejected') {
    if (through) throw refuse('a rejected piece is never mailed: leave through out');
    if (had.length > 0 || envelopeHad.length > 0)
      throw refuse(`${piece.id} was mailed already: the print room rejects a piece before it is mailed`);
    return { reject: reason ?? 'Simulated rejection: nothing was printed' };
  }
  const registered = piece.extra_service === 'registered';
  if (event?.startsWith('return_envelope.')) {
    if (piece.return_envelope !== true) throw refuse(`${piece.id} was sent without a return envelope`);
    if (through && through !== 'delivered')
      throw refuse('a return envelope comes back once its letter is delivered: leave through out or make it delivered');
    const ended = had.find((a) => ENDINGS.includes(a) && a !== 'delivered');
    if (ended) throw refuse(`the recipient never received ${piece.id}: it was ${name(ended)}`);
    const letter = registered ? [] : lifeUpTo('delivered', had, '');
    return { scans: [...letter, ...envelopeUpTo(event.slice('return_envelope.'.length), envelopeHad)] };
  }
  // registered letters get no tracking events (spec): their life is not simulated either
  if (registered && event) throw refuse('registered letters get no tracking events');
  if (registered) return { scans: [] };
  if (!event) return { scans: lifeUpTo(through ?? 'delivered', had, '') };

  if ((event === 'pickup_available' || event === 'issue') && !isCertified(piece))
    throw refuse(`${event} is a tracking event of certified letters only: ${piece.id} is not certified`);
  if (event === 'international_exit') {
    if (!isAbroad(piece)) throw refuse(`international_exit is for a ${what} addressed outside the US`);
    if (through && NORMAL_LIFE.indexOf(through) > NORMAL_LIFE.indexOf('in_transit'))
      throw refuse('a piece leaving the US is not scanned in a local area there: through is at most in_transit');
    const local = had.find((a) => NORMAL_LIFE.indexOf(a as LifeStep) > NORMAL_LIFE.indexOf('in_transit'));
    if (local && !had.includes(event)) throw refuse(`International Exit cannot follow ${name(local)}`);
  }
  if (had.includes(event) && !through) return { scans: [] };
  if (through === 'delivered') throw refuse(`${name(event)} cannot follow Delivered`);
  const scans = lifeUpTo(through ?? FOLLOWS[event], had, event);
  if (had.includes(event)) return { scans };
  return { scans: [...scans, { action: event, envelope: false, details }] };
}

/** The return envelope's scans it lacks up to `event`; nothing follows its Returned to Sender. */
function envelopeUpTo(event: string, had: string[]): PlannedScan[] {
  if (had.includes(event)) return [];
  if (had.includes('returned_to_sender')) throw refuse(`${name(event)} cannot follow Returned to Sender`);
  const last = ENVELOPE_LIFE.includes(event) ? event : 'in_transit';
  const steps = ENVELOPE_LIFE.slice(0, ENVELOPE_LIFE.indexOf(last) + 1).filter((s) => !had.includes(s));
  if (!ENVELOPE_LIFE.includes(event)) steps.push(event);
  return steps.map((action) => ({ action, envelope: true }));
}
