// Events (docs/compat-notes.md, "Events and webhooks"): what happened to an object, recorded in the
// commit of the change itself, per account and mode; listed newest first and retrieved by id. The
// event types are the resources' own `events` (catalog/event-types.ts says which happen in test mode).
import { Type } from '@sinclair/typebox';
import { dateFilter, dateTime, id, listQuery, objectName } from './fields';
import { operation } from './operation';
import { defineResource } from './resource';

export const eventTypeObject = () =>
  Type.Object(
    {
      id: Type.String({ description: 'The event type: `family.event`, e.g. `postcard.created`.' }),
      enabled_for_test: Type.Boolean({ description: 'Whether events of this type happen in test mode.' }),
      resource: Type.String({ description: 'The resource the event is about (`postcards`, ...).' }),
      object: objectName('event_type'),
    },
    { description: 'The type of an event.' },
  );

const eventObject = () =>
  Type.Object({
    id: id('evt', 'event'),
    body: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'The object as it was when the event happened (for `*.deleted`, as it was when deleted, with `deleted: true`); its file links signed, valid 30 days.',
    }),
    reference_id: Type.String({ description: 'The id of the object the event is about.' }),
    event_type: eventTypeObject(),
    date_created: dateTime('When the event happened (UTC, ISO 8601).'),
    object: objectName('event'),
  });

export const eventOperations = {
  list: operation({
    name: 'list',
    method: 'GET',
    path: '/v1/events',
    summary: 'List events',
    query: Type.Object({
      ...listQuery().properties,
      event_type: Type.Optional(
        Type.Union(
          [
            Type.String({ minLength: 3, maxLength: 4_000 }),
            Type.Array(Type.String({ minLength: 3, maxLength: 80 }), { minItems: 1, maxItems: 100 }),
          ],
          {
            description:
              'Only events of these types: one (`postcard.created`), several separated by commas, or the parameter repeated.',
            examples: ['postcard.created,postcard.delivered'],
          },
        ),
      ),
      reference_id: Type.Optional(
        Type.String({
          pattern: '^[a-z]+_[A-Za-z0-9]+$',
          maxLength: 64,
          errorMessage: 'must be an object id (psc_..., ltr_...)',
          description: 'Only events about this object.',
          examples: ['psc_5c002b86ce47537a'],
        }),
      ),
      date_created: Type.Optional(dateFilter('event date')),
    }),
    response: 'list',
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/events/{id}',
    summary: 'Retrieve an event',
    response: 'object',
  }),
};

export const events = defineResource({
  name: 'events',
  title: 'Event',
  object: 'event',
  idPrefix: 'evt',
  description:
    'What happened to the account’s objects, in the mode of the key: created, rendered, mailed, delivered, ... Webhooks receive the same events.',
  schema: eventObject(),
  operations: Object.values(eventOperations),
  events: [],
  sample: {
    id: 'evt_9e84094c9368cfb',
    body: { id: 'psc_5c002b86ce47537a', object: 'postcard' },
    reference_id: 'psc_5c002b86ce47537a',
    event_type: { id: 'postcard.created', enabled_for_test: true, resource: 'postcards', object: 'event_type' },
    date_created: '2026-11-20T18:39:45.123Z',
    object: 'event',
  },
});
