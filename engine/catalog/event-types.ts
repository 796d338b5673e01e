// The webhook event types (docs/compat-notes.md, "Events and webhooks"; names `family.event`), declared
// once: each resource lists its own in `events`, and whether a type happens in test mode follows from
// its name here. Tracking events happen only to live pieces, which alone reach production, unless a
// test piece is simulated, which is also how a test piece gets rejected (simulatedInTest).

/** A piece's life in the mail stream, as tracking events name it (`In Transit` -> `in_transit`). */
export const TRACKING_EVENTS = [
  'mailed',
  'in_transit',
  'in_local_area',
  'processed_for_delivery',
  're-routed',
  'returned_to_sender',
  'delivered',
  'international_exit',
] as const;
export type TrackingEvent = (typeof TRACKING_EVENTS)[number];

/** Certified mail's own tracking events (`letter.certified.delivered`): the normal ones at home, and two more. */
export const CERTIFIED_EVENTS = [
  ...TRACKING_EVENTS.filter((e) => e !== 'international_exit'),
  'pickup_available',
  'issue',
] as const;

/** A return envelope's tracking events (`letter.return_envelope.in_transit`). */
export const RETURN_ENVELOPE_EVENTS = [
  'in_transit',
  'in_local_area',
  'processed_for_delivery',
  're-routed',
  'returned_to_sender',
] as const;

/** What every printed piece records in both modes. */
export const PIECE_EVENTS = ['created', 'rejected', 'rendered_pdf', 'rendered_thumbnails', 'deleted', 'failed'];

const LIVE_ONLY = new Set<string>([...TRACKING_EVENTS, ...CERTIFIED_EVENTS.map((e) => `certified.${e}`)]);

/** Whether events of this type happen in test mode (the event type's `enabled_for_test`). */
export function enabledForTest(type: string): boolean {
  const action = type.slice(type.indexOf('.') + 1);
  if (action.startsWith('return_envelope.')) return action === 'return_envelope.created';
  return !LIVE_ONLY.has(action);
}

/** The event type name of a tracking event's name: `In Transit` -> `in_transit`, `Re-Routed` -> `re-routed`. */
export const trackingAction = (name: string): string => name.trim().toLowerCase().replace(/\s+/g, '_');

/** A tracking event's name as the carrier writes it, by its action (`in_transit` -> `In Transit`). */
export const TRACKING_NAMES: Readonly<Record<string, string>> = {
  mailed: 'Mailed',
  in_transit: 'In Transit',
  in_local_area: 'In Local Area',
  processed_for_delivery: 'Processed for Delivery',
  're-routed': 'Re-Routed',
  returned_to_sender: 'Returned to Sender',
  delivered: 'Delivered',
  international_exit: 'International Exit',
  pickup_available: 'Pickup Available',
  issue: 'Issue',
};

/** A piece's normal life in the mail stream, in order (docs/compat-notes.md): what a simulation walks. */
export const NORMAL_LIFE = ['mailed', 'in_transit', 'in_local_area', 'processed_for_delivery', 'delivered'] as const;
export type LifeStep = (typeof NORMAL_LIFE)[number];

/**
 * What `simulate` makes besides the normal life (its `event`): the exceptions of a piece's life, a
 * certified letter's own two, its return envelope's scans and the print room's rejection. A kind
 * takes those of them its own event types name (catalog/mailpieces/define.ts).
 */
export const SIMULATED_EVENTS = [
  're-routed',
  'returned_to_sender',
  'international_exit',
  'pickup_available',
  'issue',
  ...RETURN_ENVELOPE_EVENTS.map((e) => `return_envelope.${e}` as const),
  'rejected',
] as const;
export type SimulatedEvent = (typeof SIMULATED_EVENTS)[number];

export const isSimulatedEvent = (value: unknown): value is SimulatedEvent =>
  typeof value === 'string' && SIMULATED_EVENTS.some((known) => known === value);

/**
 * Whether a test piece gets events of this type only through `simulate` (the engine's test-mode
 * extension): every tracking event, certified or of a return envelope, and a rejection (test pieces
 * are never printed, so no print room rejects one).
 */
export function simulatedInTest(type: string): boolean {
  const action = type.slice(type.indexOf('.') + 1).replace(/^certified\./, '');
  return NORMAL_LIFE.some((known) => known === action) || isSimulatedEvent(action);
}
