// The event log and a webhook's delivery attempts as the API reads them back: the store's pages, the
// attempts' cursors made and read here so the HTTP handlers only shape answers.
import type { Services } from '../services';
import type { Scope } from '../../store/objects';
import type { ApiObject } from '../../store/columns';
import type { ListPage } from '../../store/object-list';
import type { EventListParams } from '../../store/event-list';
import type { AttemptRecord } from '../../store/webhook-attempts';
import { decodeCursor, encodeCursor } from '../../store/cursor';

export type { EventListParams } from '../../store/event-list';

export function getEvent(services: Services, scope: Scope, id: string): Promise<ApiObject | undefined> {
  return services.store.events.getEvent(scope, id);
}

export function listEvents(services: Services, scope: Scope, params: EventListParams): Promise<ListPage> {
  return services.store.events.listEvents(scope, params);
}

/** A page of a webhook's attempts, newest first; `next` is the cursor of the page after it, if any. */
export async function listDeliveryAttempts(
  services: Services,
  scope: Scope,
  webhookId: string,
  page: { limit: number; after?: string; status?: string },
): Promise<{ data: AttemptRecord[]; next?: string }> {
  const cursor = page.after ? decodeCursor(page.after) : undefined;
  const { data, more } = await services.store.events.listAttempts(
    scope,
    webhookId,
    page.limit,
    cursor && { date: cursor.value, id: cursor.id },
    page.status,
  );
  const last = data[data.length - 1];
  return { data, next: more && last ? encodeCursor(last.date_created, last.id) : undefined };
}
