// Cards (the vendor's Cards): a printed card a letter carries as an insert (`cards` on a letter, at
// most one, not in us_legal letters), and its orders, each a print run of at least 10,000 that lives
// under the card (`/v1/cards/{card_id}/orders`). Sizes are height by width, as the vendor names them.
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

export const CARD_SIZES = ['2.125x3.375', '3.375x2.125'] as const;
/** The vendor's smallest card order (and reorder quantity). */
export const CARD_ORDER_MINIMUM = 10_000;

export const cardOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/cards',
    summary: 'Create a card',
    body: Type.Object({
      front: insertArtwork('The front of the card'),
      back: Type.Optional(insertArtwork('The back of the card (blank when left out)')),
      size: Type.Optional(
        Type.Union(
          CARD_SIZES.map((s) => Type.Literal(s)),
          {
            default: '2.125x3.375',
            description: 'Height by width in inches: 2.125x3.375 (horizontal, default) or 3.375x2.125 (vertical).',
            examples: ['2.125x3.375'],
          },
        ),
      ),
      description: Type.Optional(insertDescription('card')),
    }),
    response: 'object',
    idempotent: true,
    files: ['front', 'back'],
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/cards/{id}',
    summary: 'Retrieve a card',
    response: 'object',
  }),
  list: listOperation('/v1/cards', 'List cards'),
  update: operation({
    name: 'update',
    method: 'POST',
    path: '/v1/cards/{id}',
    summary: 'Update a card',
    body: insertUpdate('card', CARD_ORDER_MINIMUM),
    response: 'object',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/cards/{id}',
    summary: 'Delete a card and its orders',
    response: 'deleted',
  }),
};

export const cardOrderOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/cards/{card_id}/orders',
    summary: 'Order a print run of a card',
    body: orderCreate('card', CARD_ORDER_MINIMUM),
    response: 'object',
    idempotent: true,
  }),
  list: operation({
    name: 'list',
    method: 'GET',
    path: '/v1/cards/{card_id}/orders',
    summary: "List a card's orders",
    query: orderListQuery(),
    response: 'list',
    filters: [],
    sorts: [],
  }),
};

const cardOrderSchema = () => orderObject('co', 'card', 'card_id', 'card', 'card_order');

export const cards = defineResource({
  name: 'cards',
  title: 'Card',
  object: 'card',
  idPrefix: 'card',
  description: 'A card inserted in letters: its artwork, size and the stock its orders print.',
  fields: {
    ...insertFields('card', CARD_SIZES, ['processed', 'rendered']),
    orientation: Type.Union([Type.Literal('horizontal'), Type.Literal('vertical')], {
      description: 'horizontal for 2.125x3.375, vertical for 3.375x2.125.',
    }),
  },
  operations: Object.values(cardOperations),
  assetLinks: ['url', 'raw_url', 'front_original_url', 'back_original_url'],
  events: [],
  sample: {
    id: 'card_7a6d73c5c8457fc1',
    description: 'Loyalty card',
    size: '2.125x3.375',
    url: 'https://printpost.example/assets/uploads/card_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    raw_url: 'https://printpost.example/assets/uploads/card_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    front_original_url:
      'https://printpost.example/assets/uploads/card_7a6d73c5c8457fc1_front?expires=1790000000&signature=x',
    back_original_url:
      'https://printpost.example/assets/uploads/card_7a6d73c5c8457fc1_back?expires=1790000000&signature=x',
    thumbnails: [],
    auto_reorder: false,
    reorder_quantity: null,
    threshold_amount: 0,
    available_quantity: 0,
    pending_quantity: 10000,
    status: 'processed',
    orientation: 'horizontal',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'card',
  },
});

export const cardOrders = defineResource({
  name: 'card_orders',
  title: 'Card order',
  object: 'card_order',
  idPrefix: 'co',
  description: "A print run of a card: pending until it is printed, then the card's available stock.",
  schema: cardOrderSchema(),
  operations: Object.values(cardOrderOperations),
  events: [],
  sample: {
    id: 'co_e0f8a0562a06bea7',
    card_id: 'card_7a6d73c5c8457fc1',
    status: 'pending',
    quantity_ordered: 10000,
    inventory: 0,
    unit_price: 0,
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'card_order',
  },
});
