// Webhooks, our extension (docs/compat-notes.md, "Events and webhooks"): an endpoint that receives the
// account's events of the key's mode, signed with a secret shown once, at create. Secret keys only.
// Delivery attempts are kept and listed per webhook.
import { Type } from '@sinclair/typebox';
import { dateTime, description, id, metadata, nullable, objectName } from './fields';
import { operation } from './operation';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import type { Rule } from './types';

const url = () =>
  Type.String({
    minLength: 8,
    maxLength: 2048,
    pattern: '^https?://[^\\s/?#]+',
    errorMessage: 'must be an http(s) URL',
    description:
      'Where events are POSTed. An address on a loopback, private or link-local network needs the operator’s ALLOWED_PRIVATE_NETWORKS; redirects are not followed.',
    examples: ['https://example.com/hooks/printpost'],
  });

const eventTypes = () =>
  Type.Array(Type.String({ minLength: 1, maxLength: 80 }), {
    minItems: 1,
    maxItems: 200,
    uniqueItems: true,
    description: 'The event types sent to it (`postcard.created`, `letter.delivered`, ...), or `*` for all.',
    examples: [['postcard.created', 'postcard.rendered_pdf']],
  });

const enabled = () => Type.Boolean({ default: true, description: 'Whether events are sent to it.' });

/** Event types a webhook may name: the catalog's own (checked where the catalog is known, engine/domain/events). */
export const WILDCARD = '*';

const noWildcardBesides: Rule = (body, at) =>
  Array.isArray(body.event_types) && body.event_types.includes(WILDCARD) && body.event_types.length > 1
    ? { message: `${at('event_types')} names \`*\` (every type) together with other types` }
    : undefined;

/** The longest overlap a rotation may give the old secret: 3 days. */
export const MAX_OVERLAP_HOURS = 72;

/** What a delivery (one event for one webhook) is: being tried, delivered, out of attempts, or dropped. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;

function replayAnswer() {
  return Type.Object(
    {
      queued: Type.Integer({ description: 'How many failed deliveries were queued again, oldest first.' }),
      object: objectName('webhook_replay'),
    },
    { examples: [{ queued: 1, object: 'webhook_replay' }] },
  );
}

export const webhookOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/webhooks',
    summary: 'Create a webhook',
    body: Type.Object({
      url: url(),
      event_types: eventTypes(),
      description: Type.Optional(description()),
      enabled: Type.Optional(enabled()),
      metadata: Type.Optional(metadata()),
    }),
    rules: [noWildcardBesides],
    response: 'object',
    idempotent: true,
  }),
  list: listOperation('/v1/webhooks', 'List webhooks'),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/webhooks/{id}',
    summary: 'Retrieve a webhook',
    response: 'object',
  }),
  update: operation({
    name: 'update',
    method: 'POST',
    path: '/v1/webhooks/{id}',
    summary: 'Update a webhook',
    body: Type.Object({
      url: Type.Optional(url()),
      event_types: Type.Optional(eventTypes()),
      description: Type.Optional(description()),
      enabled: Type.Optional(enabled()),
      metadata: Type.Optional(metadata()),
    }),
    rules: [noWildcardBesides],
    response: 'object',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/webhooks/{id}',
    summary: 'Delete a webhook',
    response: 'deleted',
  }),
  rotateSecret: operation({
    name: 'rotate_secret',
    method: 'POST',
    path: '/v1/webhooks/{id}/rotate_secret',
    summary: 'Rotate the signing secret of a webhook',
    body: Type.Object({
      expires_in_hours: Type.Optional(
        Type.Number({
          minimum: 0,
          maximum: MAX_OVERLAP_HOURS,
          default: 24,
          description: `How long the old secret keeps signing beside the new one, in hours (0 to ${MAX_OVERLAP_HOURS}; 0 ends it now, as after a leak). Until then each delivery carries both signatures.`,
        }),
      ),
    }),
    response: 'object',
  }),
  deliveries: operation({
    name: 'deliveries',
    method: 'GET',
    path: '/v1/webhooks/{id}/deliveries',
    summary: 'List the delivery attempts of a webhook',
    query: Type.Object({
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many, 1 to 100.' })),
      after: Type.Optional(Type.String({ description: 'Cursor from next_url.' })),
      status: Type.Optional(
        Type.Union(
          DELIVERY_STATUSES.map((s) => Type.Literal(s)),
          {
            description:
              'Only the attempts of deliveries in this state: `failed` had every attempt, or was set aside when its webhook was disabled (an attempt 0 saying so), and waits for a replay (by its event_id); `pending` is still being tried.',
          },
        ),
      ),
    }),
    response: 'list',
  }),
  replayDelivery: operation({
    name: 'replayDelivery',
    method: 'POST',
    path: '/v1/webhooks/{wh_id}/deliveries/{evt_id}/replay',
    summary: 'Replay the failed delivery of an event to a webhook',
    response: 'object',
    responseSchema: replayAnswer(),
  }),
  replay: operation({
    name: 'replay',
    method: 'POST',
    path: '/v1/webhooks/{id}/replay',
    summary: 'Replay every failed delivery of a webhook',
    response: 'object',
    responseSchema: replayAnswer(),
  }),
};

export const deliveryObject = () =>
  Type.Object({
    id: id('whd', 'delivery attempt'),
    webhook_id: Type.String(),
    event_id: Type.String(),
    event_type: Type.String(),
    attempt: Type.Integer({
      description:
        'Which attempt this was, 1 to 8; 0: the delivery was set aside unattempted (its webhook disabled), with why in response_excerpt.',
    }),
    status: Type.Union([Type.Literal('succeeded'), Type.Literal('failed')]),
    delivery_status: Type.Union(
      [...DELIVERY_STATUSES, 'skipped'].map((s) => Type.Literal(s)),
      { description: 'Where the delivery this attempt belongs to stands now (`failed`: it can be replayed).' },
    ),
    response_status: nullable(Type.Integer({ description: 'The HTTP status answered, or null when none came.' })),
    duration_ms: Type.Integer(),
    response_excerpt: Type.String({ description: 'The first 500 characters of the answer, or why none came.' }),
    date_created: dateTime('When the attempt was made.'),
    object: objectName('webhook_delivery'),
  });

export const webhooks = defineResource({
  name: 'webhooks',
  title: 'Webhook',
  object: 'webhook',
  idPrefix: 'wh',
  description:
    'Endpoints that receive the account’s events of the key’s mode, signed with their secret (Service-Signature, Service-Signature-Timestamp). Secret keys only.',
  fields: {
    url: url(),
    event_types: eventTypes(),
    description: nullable(Type.String({ maxLength: 255 })),
    enabled: enabled(),
    disabled_reason: Type.Optional(
      nullable(
        Type.String({
          description:
            'Why the engine disabled it (its deliveries failed for WEBHOOK_DISABLE_AFTER_HOURS); null when enabled, cleared by enabling it again.',
        }),
      ),
    ),
    metadata: metadata(),
    secret: Type.Optional(
      Type.String({
        description:
          'The signing secret: in the answers of create and rotate_secret only. Keep it to check signatures.',
      }),
    ),
    previous_secret_expires_at: Type.Optional(
      nullable(
        dateTime(
          'While a rotation overlaps: when the old secret stops signing (until then Service-Signature carries its signature and Service-Signature-New the new one); null otherwise.',
        ),
      ),
    ),
  },
  operations: Object.values(webhookOperations),
  // committed with the disable (by the engine or an update), its body the webhook without its secrets
  // and `disabled_reason` saying why; sent to the account's other enabled webhooks that take it
  events: ['webhook.disabled'],
  sample: {
    id: 'wh_6a5c1b2e3d4f5a6b',
    url: 'https://example.com/hooks/printpost',
    event_types: ['postcard.created', 'postcard.rendered_pdf'],
    description: 'Marketing automation',
    enabled: true,
    disabled_reason: null,
    metadata: {},
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'webhook',
  },
});
