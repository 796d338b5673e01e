import { createAddress, deleteAddress } from '../../mail/address-book';
import { addressSchemas } from '../../catalog/addresses';
import { typed, type Handler } from '../operation';

export const addressHandlers: Record<string, Handler> = {
  create: typed(addressSchemas, ({ services, scope, caller, body, idempotency }) =>
    createAddress(services, scope, caller.account.settings, body, idempotency),
  ),
  delete: async ({ services, scope, id }) => deleteAddress(services, scope, id!),
};
