// Events and webhooks: the event log read back, and webhooks kept through their own module
// (engine/domain/events), their secret shown once and their delivery attempts listed.
import { eventOperations } from '../../catalog/events';
import { webhookOperations } from '../../catalog/webhooks';
import { ApiError, notFound } from '../../base/errors';
import { allEventTypes } from '../../catalog';
import { getEvent, listDeliveryAttempts, listEvents } from '../../domain/events/event-log';
import {
  createWebhook,
  publicWebhook,
  replayDeliveries,
  rotateWebhookSecret,
  updateWebhook,
} from '../../domain/events/webhooks';
import { envelope, listParams } from '../list';
import { serve, type Served } from '../operation';
import { listObjects, retrieveObject } from './generic';

const KNOWN_TYPES = new Set(allEventTypes());

/** The types asked for (a list, commas or both), each one the catalog knows; else 422. */
function eventTypesOf(given: string | string[] | undefined): string[] | undefined {
  if (given === undefined) return undefined;
  const types = [
    ...new Set((Array.isArray(given) ? given : [given]).flatMap((g) => g.split(',')).map((g) => g.trim())),
  ];
  const unknown = types.find((type) => !KNOWN_TYPES.has(type));
  if (unknown !== undefined)
    throw new ApiError(
      'invalid',
      `event_type ${JSON.stringify(unknown)} is not an event type (postcard.created, letter.delivered, ...: GET /v1/openapi.json lists them)`,
      422,
    );
  return types;
}

const pageOf = <P extends { data: unknown[] }>(page: P) => ({ ...page, data: page.data.map((o) => publicWebhook(o)) });

export const eventHandlers: Served[] = [
  serve(eventOperations.retrieve, async ({ services, scope, params }) => {
    const event = await getEvent(services, scope, params.id);
    if (!event) throw notFound('event');
    return event;
  }),
  serve(eventOperations.list, async ({ services, scope, operation, query, url }) => {
    const common = listParams(query, operation);
    const page = await listEvents(services, scope, {
      limit: common.limit,
      after: common.after,
      before: common.before,
      dateCreated: common.dateCreated,
      includeTotal: common.includeTotal,
      eventTypes: eventTypesOf(query.event_type),
      referenceId: query.reference_id,
    });
    return envelope(page, url, query);
  }),
];

export const webhookHandlers: Served[] = [
  serve(webhookOperations.create, ({ services, scope, body, idempotency }) =>
    createWebhook(services, scope, body, idempotency),
  ),
  serve(webhookOperations.retrieve, async (request) => publicWebhook(await retrieveObject(request))),
  serve(webhookOperations.list, async (request) => pageOf(await listObjects(request))),
  serve(webhookOperations.update, ({ services, scope, params, body }) =>
    updateWebhook(services, scope, params.id, body),
  ),
  serve(webhookOperations.rotateSecret, ({ services, scope, params, body }) =>
    rotateWebhookSecret(services, scope, params.id, body),
  ),
  serve(webhookOperations.deliveries, async ({ services, scope, params, query, url }) => {
    if (!(await services.objects.get(scope, 'webhooks', params.id))) throw notFound('webhook');
    const limit = query.limit ?? 10;
    const { data, next } = await listDeliveryAttempts(services, scope, params.id, {
      limit,
      after: query.after,
      status: query.status,
    });
    return {
      object: 'list',
      data,
      count: data.length,
      next_url:
        next !== undefined
          ? `${url}?limit=${limit}${query.status ? `&status=${query.status}` : ''}&after=${next}`
          : null,
      previous_url: null,
    };
  }),
  serve(webhookOperations.replayDelivery, ({ services, scope, params }) =>
    replayDeliveries(services, scope, params.wh_id, params.evt_id),
  ),
  serve(webhookOperations.replay, ({ services, scope, params }) => replayDeliveries(services, scope, params.id)),
];
