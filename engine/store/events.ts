// Event rows for the outbox: written in the same transaction as the change they describe, in the
// vendor's event object shape; the webhooks work drains them.
import { enabledForTest } from '../catalog/event-types';
import { newId } from '../base/ids';
import { nowIso } from '../base/time';
import type { Scope } from './scope';

export type EventRow = {
  id: string;
  account_id: string;
  mode: string;
  event_type: string;
  reference_id: string;
  date_created: string;
  body: string;
};

/**
 * The event row for `object` having become what it is now (`address.created`, `letter.deleted`, ...).
 * `objectJson` is the object as already serialized for its own row: spliced in, not serialized again.
 */
export function eventRow(
  scope: Scope,
  eventType: string,
  resource: string,
  object: { id: string },
  objectJson?: string,
  dateCreated: string = nowIso(),
): EventRow {
  const { around, ...row } = eventAround(scope, eventType, resource, object.id, dateCreated);
  return { ...row, body: around.before + (objectJson ?? JSON.stringify(object)) + around.after };
}

/**
 * An event row whose body is still to be put together: the text `before` and `after` the object's JSON
 * (so a statement can join them around a body it already has, as a campaign's delete does).
 */
export function eventAround(
  scope: Scope,
  eventType: string,
  resource: string,
  objectId: string,
  dateCreated: string,
): Omit<EventRow, 'body'> & { around: { before: string; after: string } } {
  const id = newId('evt');
  const eventTypeObject = {
    id: eventType,
    enabled_for_test: enabledForTest(eventType),
    resource,
    object: 'event_type',
  };
  return {
    id,
    account_id: scope.accountId,
    mode: scope.mode,
    event_type: eventType,
    reference_id: objectId,
    date_created: dateCreated,
    around: {
      before: `{"id":${JSON.stringify(id)},"body":`,
      after:
        `,"reference_id":${JSON.stringify(objectId)},` +
        `"event_type":${JSON.stringify(eventTypeObject)},"date_created":"${dateCreated}","object":"event"}`,
    },
  };
}
