// A certified tracking event's `details` (docs/compat-notes.md, "Tracking events": {event,
// description, notes, action_required}): what the scan record gives, else what its name implies.
import { ScanRefused } from './scan-refused';

/** The vendor's detail events (its OpenAPI document, tracking_event_details). */
const DETAIL_EVENTS = new Set([
  'package_accepted',
  'package_arrived',
  'package_departed',
  'package_processing',
  'package_processed',
  'package_in_local_area',
  'delivery_scheduled',
  'out_for_delivery',
  'pickup_available',
  'delivered',
  'package_forwarded',
  'returned_to_sender',
  'address_issue',
  'contact_carrier',
  'delayed',
  'delivery_attempted',
  'delivery_rescheduled',
  'location_inaccessible',
  'notice_left',
  'package_damaged',
  'package_disposed',
  'package_held',
  'package_lost',
  'package_unclaimed',
  'package_undeliverable',
  'reschedule_delivery',
  'other',
]);

/** What a certified event of each name says when its record gives no details. */
const DEFAULTS: Readonly<Record<string, [event: string, description: string, actionRequired: boolean]>> = {
  mailed: ['package_accepted', 'Accepted by the carrier', false],
  in_transit: ['package_departed', 'Departed a carrier facility', false],
  in_local_area: ['package_in_local_area', 'Arrived in the destination area', false],
  processed_for_delivery: ['out_for_delivery', 'Out for delivery', false],
  're-routed': ['package_forwarded', 'Forwarded to an updated address', false],
  returned_to_sender: ['returned_to_sender', 'Being returned to the sender', false],
  delivered: ['delivered', 'Delivered', false],
  pickup_available: ['pickup_available', 'Available for pickup at the post office', true],
  issue: ['other', 'A delivery issue needs attention', true],
};

export function certifiedDetails(action: string, given?: Record<string, unknown> | null): Record<string, unknown> {
  const [event, description, actionRequired] = DEFAULTS[action] ?? ['other', action, false];
  if (!given) return { event, description, notes: '', action_required: actionRequired };
  if (given.event !== undefined && (typeof given.event !== 'string' || !DETAIL_EVENTS.has(given.event)))
    throw new ScanRefused(`details.event must be one of ${[...DETAIL_EVENTS].join(', ')}`);
  for (const field of ['description', 'notes'])
    if (given[field] !== undefined && typeof given[field] !== 'string')
      throw new ScanRefused(`details.${field} must be a string`);
  if (given.action_required !== undefined && typeof given.action_required !== 'boolean')
    throw new ScanRefused('details.action_required must be true or false');
  return {
    event: given.event ?? event,
    description: given.description ?? description,
    notes: given.notes ?? '',
    action_required: given.action_required ?? actionRequired,
  };
}
