// A letter's return envelope travels back from its recipient as a piece of its own (docs/compat-notes.md,
// "Tracking events"): its scans are kept apart from the letter's, in `return_envelope_tracking_events`,
// and each emits `letter.return_envelope.<event>`. The carrier scans it only once it is in the mail
// stream coming back, so its life starts at In Transit: it has no Mailed nor Delivered.
import { RETURN_ENVELOPE_EVENTS, TRACKING_NAMES } from '../../catalog/event-types';
import type { Resource } from '../../catalog/types';
import type { ApiObject } from '../../store/objects';
import { ScanRefused } from './scan-refused';

/** The letter field that keeps its return envelope's tracking events (the engine's extension). */
export const RETURN_ENVELOPE_TRACKING = 'return_envelope_tracking_events';

/** The webhook event type of `action` on the piece's return envelope, or why it has no such event. */
export function returnEnvelopeEventType(resource: Resource, piece: ApiObject, action: string): string {
  if (resource.name !== 'letters')
    throw new ScanRefused(`${piece.id} is not a letter: only letters have return envelopes`);
  if (piece.return_envelope !== true) throw new ScanRefused(`${piece.id} was sent without a return envelope`);
  if (!RETURN_ENVELOPE_EVENTS.some((known) => known === action))
    throw new ScanRefused(
      `${TRACKING_NAMES[action] ?? action} is not a tracking event of a return envelope (${RETURN_ENVELOPE_EVENTS.map(
        (e) => TRACKING_NAMES[e],
      ).join(', ')})`,
    );
  return `${resource.object}.return_envelope.${action}`;
}
