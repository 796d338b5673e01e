// Cards and buckslips and their orders: creates store the artwork, reads add the stock their orders
// make; delete is the generic one (an insert's orders go with it), and so is the orders' list once the
// insert is known to exist.
import { cardOperations, cardOrderOperations, cards } from '../../catalog/cards';
import { buckslipOperations, buckslipOrderOperations, buckslips } from '../../catalog/buckslips';
import { createInsert, createOrder, liveInsert, updateInsert, withStock } from '../../mail/inserts/inserts';
import type { Resource } from '../../catalog/types';
import { envelope, listParams } from '../list';
import { serve, type Served } from '../operation';
import { listObjects } from './generic';

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
  serve(cardOrderOperations.list, async (request) => {
    await liveInsert(request.services, request.scope, cards, request.params.card_id);
    return listObjects(request);
  }),
  serve(buckslipOrderOperations.create, ({ services, scope, params, body, idempotency }) =>
    createOrder(services, scope, buckslips, params.bck_id, body.quantity, idempotency),
  ),
  serve(buckslipOrderOperations.list, async (request) => {
    await liveInsert(request.services, request.scope, buckslips, request.params.bck_id);
    return listObjects(request);
  }),
];
