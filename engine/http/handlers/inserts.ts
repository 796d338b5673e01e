// Cards and buckslips and their orders: creates store the artwork, reads add the stock their orders
// make; delete is the generic one (an insert's orders go with it). Orders are paged by offset, as the
// vendor pages them.
import { cardOperations, cardOrderOperations, cards } from '../../catalog/cards';
import { buckslipOperations, buckslipOrderOperations, buckslips } from '../../catalog/buckslips';
import { createInsert, createOrder, liveInsert, ordersOf, updateInsert, withStock } from '../../domain/inserts/inserts';
import type { ApiObject } from '../../store/objects';
import type { Resource } from '../../catalog/types';
import { envelope, listParams } from '../list';
import { serve, type Served } from '../operation';

/** A page of an insert's orders by `limit` and `offset`, its links the neighbouring pages. */
function orderPage(orders: ApiObject[], query: { limit?: number; offset?: number }, url: string) {
  const limit = query.limit ?? 10;
  const offset = query.offset ?? 0;
  const data = orders.slice(offset, offset + limit);
  const link = (at: number) => `${url}?${new URLSearchParams({ limit: String(limit), offset: String(at) }).toString()}`;
  return {
    object: 'list',
    data,
    count: data.length,
    next_url: offset + data.length < orders.length ? link(offset + data.length) : null,
    previous_url: offset > 0 ? link(Math.max(0, offset - limit)) : null,
  };
}

type InsertOperations = typeof cardOperations | typeof buckslipOperations;

function insertHandlers(resource: Resource, ops: InsertOperations): Served[] {
  return [
    serve(ops.create, ({ services, scope, body, idempotency }) =>
      createInsert(services, scope, resource, body, idempotency),
    ),
    serve(ops.retrieve, async ({ services, scope, params }) => {
      const insert = await liveInsert(services, scope, resource, params.id);
      return (await withStock(services, scope, resource, [insert]))[0];
    }),
    serve(ops.list, async ({ services, scope, operation, query, url }) => {
      const page = await services.objects.list(scope, resource.name, listParams(query, operation));
      return envelope({ ...page, data: await withStock(services, scope, resource, page.data) }, url, query);
    }),
    serve(ops.update, ({ services, scope, params, body }) => updateInsert(services, scope, resource, params.id, body)),
  ];
}

export const insertHandlersServed: Served[] = [
  ...insertHandlers(cards, cardOperations),
  ...insertHandlers(buckslips, buckslipOperations),
  serve(cardOrderOperations.create, ({ services, scope, params, body, idempotency }) =>
    createOrder(services, scope, cards, params.card_id, body.quantity, idempotency),
  ),
  serve(cardOrderOperations.list, async ({ services, scope, params, query, url }) =>
    orderPage(await ordersOf(services, scope, cards, params.card_id), query, url),
  ),
  serve(buckslipOrderOperations.create, ({ services, scope, params, body, idempotency }) =>
    createOrder(services, scope, buckslips, params.bck_id, body.quantity, idempotency),
  ),
  serve(buckslipOrderOperations.list, async ({ services, scope, params, query, url }) =>
    orderPage(await ordersOf(services, scope, buckslips, params.bck_id), query, url),
  ),
];
