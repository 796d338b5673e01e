// The webhook event types as both packs' triggers offer them: one family a resource with `events`
// (`postcard.created`, `postcard.certified.delivered`...), each type with a label and whether it also
// happens in test mode: always, only when a test piece is simulated, or never.
import type { PackResource } from './pack-catalog';
import { title } from './schema';

export interface PackEventType {
  /** the event type itself, as webhooks and `GET /v1/events` name it */
  type: string;
  /** `Certified Delivered` for `letter.certified.delivered` */
  label: string;
  /** whether events of this type happen in test mode (tracking events happen to live pieces only) */
  inTest: boolean;
  /** a type a test piece gets only when simulated (`POST /v1/<kind>/{id}/simulate`): tracking events, rejected */
  bySimulate: boolean;
}

/** Resources whose objects have events: the event families. */
export const eventFamilies = (resources: readonly PackResource[]): PackResource[] =>
  resources.filter((r) => r.events.length > 0);

export function eventTypesOf(r: PackResource): PackEventType[] {
  return r.events.map((type) => {
    const action = type.startsWith(`${r.object}.`) ? type.slice(r.object.length + 1) : type;
    return {
      type,
      label: title(action.replace(/\./g, '_')),
      inTest: r.testEvents.includes(type),
      bySimulate: r.simulatedEvents.includes(type),
    };
  });
}

/** Which modes a type happens in, in words. */
export const eventModes = (e: PackEventType): string => {
  if (e.inTest) return e.bySimulate ? 'test and live mode; in test mode through simulate' : 'test and live mode';
  return e.bySimulate ? 'live mode; test mode only through simulate' : 'live mode only';
};
