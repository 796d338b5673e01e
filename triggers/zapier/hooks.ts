// The Zapier app's instant triggers: one REST hook an event family (a resource with events). Turning a
// Zap on subscribes a webhook for Zapier's target URL and the types chosen (POST /v1/webhooks); Zapier
// keeps the answer, with the signing secret the engine shows only then, as subscribeData, and turning
// the Zap off deletes the webhook. Each delivery's signature is checked with that secret before it
// triggers anything. The editor's test step reads recent real events of those types (GET /v1/events).
import type { Bundle, ZObject } from 'zapier-platform-core';
import { baseUrl } from '../../credentials/zapier-authentication';
import { eventFamilies, eventModes, eventTypesOf } from '../../nodes/common/event-types';
import type { PackResource } from '../../nodes/common/pack-catalog';
import { checkSignature } from '../../engine/protocol/webhook-signature';
import { isPlainObject, isString, plainObjectOr } from '../../nodes/common/guards';
import { outputFields, type InputField, type OutputField } from '../../nodes/zapier/fields';
import { key, sentence } from '../../nodes/zapier/operations';

/** What subscribe answered and Zapier keeps for the Zap: the webhook, with its secret. */
interface Subscription {
  id?: string;
  secret?: string;
}

interface Event {
  id: string;
  date_created?: string;
  [field: string]: unknown;
}

/** The webhook Zapier keeps for the Zap (its types say `{ id }`; it holds the whole subscribe answer). */
function subscriptionOf(bundle: Bundle): Subscription {
  const kept: unknown = bundle.subscribeData;
  const { id, secret } = plainObjectOr(kept);
  return { id: isString(id) ? id : undefined, secret: isString(secret) ? secret : undefined };
}

const isEvent = (value: unknown): value is Event => isPlainObject(value) && isString(value.id);

/** How many recent events of each type the test step reads. */
const RECENT = 3;

export const hookKey = (r: PackResource) => key(r.object, 'event');

/** The types the step chose, of this family; none chosen is every type of the family. */
function chosenTypes(r: PackResource, bundle: Bundle): string[] {
  const given: unknown = bundle.inputData?.event_types;
  const list = Array.isArray(given) ? given.map(String) : typeof given === 'string' && given ? given.split(',') : [];
  const known = list.map((t) => t.trim()).filter((t) => r.events.includes(t));
  return known.length ? known : [...r.events];
}

function eventSample(r: PackResource) {
  const [first] = eventTypesOf(r);
  return {
    id: 'evt_9e84094c9368cfb',
    body: r.sample,
    reference_id: String(r.sample.id ?? ''),
    event_type: { id: first.type, enabled_for_test: first.inTest, resource: r.name, object: 'event_type' },
    date_created: '2026-11-20T18:39:45.123Z',
    object: 'event',
  };
}

function eventOutputFields(r: PackResource, resources: readonly PackResource[]): OutputField[] {
  return [
    { key: 'id', label: 'Event ID', type: 'string' },
    { key: 'event_type__id', label: 'Event Type', type: 'string' },
    { key: 'event_type__enabled_for_test', label: 'Event Type Enabled For Test', type: 'boolean' },
    { key: 'reference_id', label: `${r.title} ID`, type: 'string' },
    { key: 'date_created', label: 'Event Date', type: 'datetime' },
    ...outputFields(r.schema, resources, 'body__'),
  ];
}

function hookFor(r: PackResource, resources: readonly PackResource[]) {
  const types = eventTypesOf(r);
  const inputFields: InputField[] = [
    {
      key: 'event_types',
      label: 'Event Types',
      type: 'string',
      list: true,
      required: false,
      choices: types.map((e) => ({ value: e.type, sample: e.type, label: `${e.label} (${eventModes(e)})` })),
      helpText: `The ${r.title.toLowerCase()} events that trigger the Zap; none chosen is all of them. The connection's key decides the mode: a test key gets test-mode events; each choice says whether its type happens in test mode.`,
    },
  ];

  const performSubscribe = async (z: ZObject, bundle: Bundle) => {
    const response = await z.request({
      method: 'POST',
      url: `${baseUrl(bundle)}/v1/webhooks`,
      headers: { 'Content-Type': 'application/json' },
      body: { url: bundle.targetUrl, event_types: chosenTypes(r, bundle), description: `Zapier: ${r.title} events` },
    });
    const answer: unknown = response.data;
    return plainObjectOr(answer);
  };

  const performUnsubscribe = async (z: ZObject, bundle: Bundle) => {
    const { id } = subscriptionOf(bundle);
    if (!id) return {};
    const response = await z.request({
      method: 'DELETE',
      url: `${baseUrl(bundle)}/v1/webhooks/${encodeURIComponent(id)}`,
      skipThrowForStatus: true,
    });
    // one the engine no longer has is as unsubscribed as can be
    if (response.status === 404) return { id, deleted: true };
    response.throwForStatus();
    return response.data;
  };

  const perform = async (z: ZObject, bundle: Bundle): Promise<Event[]> => {
    const { secret } = subscriptionOf(bundle);
    const content = bundle.rawRequest?.content;
    if (!secret || typeof content !== 'string')
      throw new z.errors.HaltedError('Delivery refused: no webhook secret for this Zap, or no raw body to check');
    // the Zap knows the secret it subscribed with; after a rotation made elsewhere its deliveries still
    // carry that secret's signature until the overlap ends (README, "Zapier": turn the Zap off and on)
    const check = checkSignature([secret], Buffer.from(content, 'utf8'), bundle.rawRequest?.headers);
    if (!check.ok) throw new z.errors.HaltedError(`Delivery refused: ${check.reason}`);
    const event: unknown = JSON.parse(content);
    if (!isEvent(event)) throw new z.errors.HaltedError('Delivery refused: the body is not an event');
    return [event];
  };

  const performList = async (z: ZObject, bundle: Bundle): Promise<Event[]> => {
    // one request for every chosen type, newest first
    const page = await z.request({
      method: 'GET',
      url: `${baseUrl(bundle)}/v1/events`,
      params: { event_type: chosenTypes(r, bundle).join(','), limit: String(RECENT) },
    });
    const body: unknown = page.data;
    const events: unknown = plainObjectOr(body).data;
    return Array.isArray(events) ? events.filter(isEvent) : [];
  };

  return {
    key: hookKey(r),
    noun: `${r.title} Event`,
    display: {
      label: `New ${r.title} Event`,
      description: sentence(
        `Triggers instantly when a ${r.title.toLowerCase()} event happens (${types[0].label.toLowerCase()}, ...)`,
      ),
    },
    operation: {
      type: 'hook' as const,
      inputFields,
      performSubscribe,
      performUnsubscribe,
      perform,
      performList,
      sample: eventSample(r),
      outputFields: eventOutputFields(r, resources),
    },
  };
}

/** The instant triggers, by key: one an event family. */
export function hookTriggers(resources: readonly PackResource[]) {
  return Object.fromEntries(eventFamilies(resources).map((r) => [hookKey(r), hookFor(r, resources)]));
}
