// Buckslips (the vendor's Buckslips): a printed slip a letter carries as an insert (`buckslips` on a
// letter, at most one), and its orders, each a print run of at least 5,000 that lives under the
// buckslip (`/v1/buckslips/{bck_id}/orders`). Unlike a card, the buckslip shows its orders and the
// vendor's stock breakdown, and is updated with PATCH.
import { Type } from '@sinclair/typebox';
import {
  insertArtwork,
  insertDescription,
  insertFields,
  insertUpdate,
  orderCreate,
  orderListQuery,
  orderObject,
} from './insert-fields';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';

export const BUCKSLIP_SIZES = ['8.75x3.75'] as const;
/** The vendor's smallest buckslip order (and reorder quantity). */
export const BUCKSLIP_ORDER_MINIMUM = 5_000;

export const buckslipOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/buckslips',
    summary: 'Create a buckslip',
    body: Type.Object({
      front: insertArtwork('The front of the buckslip'),
      back: Type.Optional(insertArtwork('The back of the buckslip (blank when left out)')),
      size: Type.Optional(
        Type.Literal('8.75x3.75', { default: '8.75x3.75', description: 'The one size: 8.75x3.75 in.' }),
      ),
      description: Type.Optional(insertDescription('buckslip')),
    }),
    response: 'object',
    idempotent: true,
    files: ['front', 'back'],
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/buckslips/{id}',
    summary: 'Retrieve a buckslip',
    response: 'object',
  }),
  list: listOperation('/v1/buckslips', 'List buckslips'),
  update: operation({
    name: 'update',
    method: 'PATCH',
    path: '/v1/buckslips/{id}',
    summary: 'Update a buckslip',
    body: insertUpdate('buckslip', BUCKSLIP_ORDER_MINIMUM),
    response: 'object',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/buckslips/{id}',
    summary: 'Delete a buckslip and its orders',
    response: 'deleted',
  }),
};

export const buckslipOrderOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/buckslips/{bck_id}/orders',
    summary: 'Order a print run of a buckslip',
    body: orderCreate('buckslip', BUCKSLIP_ORDER_MINIMUM),
    response: 'object',
    idempotent: true,
  }),
  list: operation({
    name: 'list',
    method: 'GET',
    path: '/v1/buckslips/{bck_id}/orders',
    summary: "List a buckslip's orders",
    query: orderListQuery(),
    response: 'list',
    filters: [],
    sorts: [],
  }),
};

const buckslipOrderSchema = () => orderObject('bo', 'bck', 'buckslip_id', 'buckslip', 'buckslip_order');
const SAMPLE_ORDER = {
  id: 'bo_e0f8a0562a06bea7',
  buckslip_id: 'bck_7a6d73c5c8457fc1',
  status: 'pending',
  quantity_ordered: 5000,
  inventory: 0,
  unit_price: 0,
  date_created: '2026-11-20T18:39:45.123Z',
  date_modified: '2026-11-20T18:39:45.123Z',
  object: 'buckslip_order',
};

const quantity = (what: string) => Type.Integer({ description: what });

export const buckslips = defineResource({
  name: 'buckslips',
  title: 'Buckslip',
  object: 'buckslip',
  idPrefix: 'bck',
  description: 'A buckslip inserted in letters: its artwork and the stock its orders print.',
  fields: {
    ...insertFields('buckslip', BUCKSLIP_SIZES, ['processed', 'rendered', 'failed']),
    allocated_quantity: quantity('Taken by letters not yet printed (0: letters do not draw on the stock).'),
    onhand_quantity: quantity('Printed and in the print room: the same as available_quantity.'),
    projected_quantity: quantity('pending_quantity plus onhand_quantity.'),
    buckslip_orders: Type.Array(buckslipOrderSchema(), { description: 'Its orders, oldest first.' }),
    stock: Type.Union([Type.Literal('text'), Type.Literal('cover')], { description: 'Paper stock: text.' }),
    weight: Type.Literal('80#', { description: 'Paper weight: 80#.' }),
    finish: Type.Union([Type.Literal('gloss'), Type.Literal('matte')], { description: 'Finish: gloss.' }),
  },
  operations: Object.values(buckslipOperations),
  assetLinks: ['url', 'raw_url', 'front_original_url', 'back_original_url'],
  events: [],
  sample: {
    id: 'bck_7a6d73c5c8457fc1',
    description: 'Spring offer',
    size: '8.75x3.75',
    url: 'https://printpost.example/assets/uploads/bck_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    raw_url: 'https://printpost.example/assets/uploads/bck_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    front_original_url:
      'https://printpost.example/assets/uploads/bck_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    back_original_url:
      'https://printpost.example/assets/uploads/bck_7a6d73c5c8457fc1_back?expires=1790000000&signature=x',
    thumbnails: [],
    auto_reorder: false,
    reorder_quantity: null,
    threshold_amount: 0,
    available_quantity: 0,
    allocated_quantity: 0,
    onhand_quantity: 0,
    pending_quantity: 5000,
    projected_quantity: 5000,
    buckslip_orders: [SAMPLE_ORDER],
    stock: 'text',
    weight: '80#',
    finish: 'gloss',
    status: 'processed',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'buckslip',
  },
});

export const buckslipOrders = defineResource({
  name: 'buckslip_orders',
  title: 'Buckslip order',
  object: 'buckslip_order',
  idPrefix: 'bo',
  description: "A print run of a buckslip: pending until it is printed, then the buckslip's available stock.",
  schema: buckslipOrderSchema(),
  operations: Object.values(buckslipOrderOperations),
  events: [],
  sample: SAMPLE_ORDER,
});
