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
  const id = newId('evt');
  const eventTypeObject = {
    id: eventType,
    enabled_for_test: enabledForTest(eventType),
    resource,
    object: 'event_type',
  };
  const body =
    `{"id":${JSON.stringify(id)},"body":${objectJson ?? JSON.stringify(object)},"reference_id":${JSON.stringify(object.id)},` +
    `"event_type":${JSON.stringify(eventTypeObject)},"date_created":"${dateCreated}","object":"event"}`;
  return {
    id,
    account_id: scope.accountId,
    mode: scope.mode,
    event_type: eventType,
    reference_id: object.id,
    date_created: dateCreated,
    body,
  };
}
