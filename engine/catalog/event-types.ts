// The webhook event types (docs/compat-notes.md, "Events and webhooks"; names `family.event`), declared
// once: each resource lists its own in `events`, and whether a type happens in test mode follows from
// its name here. Tracking events happen only to live pieces, which alone reach production, unless a
// test piece is simulated (simulatedInTest).

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
 * Whether `simulate` (the engine's test-mode extension) makes events of this live-only type: the steps
 * of a piece's normal life, certified or not; never exceptions nor a return envelope's events.
 */
export function simulatedInTest(type: string): boolean {
  const action = type.slice(type.indexOf('.') + 1).replace(/^certified\./, '');
  return !enabledForTest(type) && (NORMAL_LIFE as readonly string[]).includes(action);
}
