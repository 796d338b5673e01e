import { addressInput, addressObjectFields } from './address-fields';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';

export const addressOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/addresses',
    summary: 'Create an address',
    body: addressInput(),
    response: 'object',
    idempotent: true,
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/addresses/{id}',
    summary: 'Retrieve an address',
    response: 'object',
  }),
  list: listOperation('/v1/addresses', 'List addresses'),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/addresses/{id}',
    summary: 'Delete an address',
    response: 'deleted',
  }),
};

export const addresses = defineResource({
  name: 'addresses',
  title: 'Address',
  object: 'address',
  idPrefix: 'adr',
  description: 'The address book: saved addresses to use as the recipient or sender of mailpieces.',
  fields: addressObjectFields(),
  operations: Object.values(addressOperations),
  events: ['address.created', 'address.deleted'],
  sample: {
    id: 'adr_d3489cd64c791ab5',
    description: 'Harry - Office',
    name: 'HARRY ZHANG',
    company: 'EXAMPLE CO',
    phone: '5555555555',
    email: 'harry@example.com',
    address_line1: '210 KING ST',
    address_line2: 'STE 6100',
    address_city: 'SAN FRANCISCO',
    address_state: 'CA',
    address_zip: '94107-1741',
    address_country: 'UNITED STATES',
    metadata: {},
    recipient_moved: false,
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'address',
  },
});
