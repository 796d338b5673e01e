import { createAddress, deleteAddress } from '../../mail/address-book';
import type { Handler } from '../operation';

export const addressHandlers: Record<string, Handler> = {
  create: ({ services, scope, caller, body, idempotency }) =>
    createAddress(services, scope, caller.account.settings, body, idempotency),
  delete: ({ services, scope, id }) => deleteAddress(services, scope, id!),
};
