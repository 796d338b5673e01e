// Billing groups (as the vendor has them): a name and description that mailpieces refer to by
// `billing_group_id`, so costs can be grouped and lists filtered by them. No handler of their own:
// the generic create, retrieve, list and update serve them.
import { Type } from '@sinclair/typebox';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { nullable } from './fields';

const name = () =>
  Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'The name of the billing group, at most 255 characters.',
    examples: ['Marketing'],
  });
const groupDescription = () =>
  nullable(
    Type.String({
      maxLength: 255,
      description: 'What the group is for, at most 255 characters.',
      examples: ['Spring campaign costs'],
    }),
  );

/** Plain bodies: the generic create and update serve them (engine/http/handlers/generic.ts). */
export const billingGroupOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/billing_groups',
    summary: 'Create a billing group',
    body: Type.Object({ name: name(), description: Type.Optional(groupDescription()) }),
    response: 'object',
    idempotent: true,
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/billing_groups/{id}',
    summary: 'Retrieve a billing group',
    response: 'object',
  }),
  list: listOperation('/v1/billing_groups', 'List billing groups', { sorts: ['date_created'] }),
  update: operation({
    name: 'update',
    method: 'POST',
    path: '/v1/billing_groups/{id}',
    summary: 'Update a billing group',
    body: Type.Object({ name: Type.Optional(name()), description: Type.Optional(groupDescription()) }),
    response: 'object',
  }),
};

export const billingGroups = defineResource({
  name: 'billing_groups',
  title: 'Billing group',
  object: 'billing_group',
  idPrefix: 'bg',
  description: 'Named groups that mailpieces are billed to; a piece names one by billing_group_id.',
  fields: { name: Type.String(), description: nullable(Type.String()) },
  operations: Object.values(billingGroupOperations),
  events: [],
  sample: {
    id: 'bg_4bb02b527a72667d0',
    name: 'Marketing',
    description: 'Spring campaign costs',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'billing_group',
  },
});
