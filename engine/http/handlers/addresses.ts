import { createAddress, deleteAddress } from '../../mail/address-book';
import type { Handler } from '../operation';

export const addressHandlers: Record<string, Handler> = {
  create: ({ services, scope, caller, body }) => createAddress(services.objects, scope, caller.account.settings, body),
  delete: ({ services, scope, id }) => deleteAddress(services.objects, scope, id!),
};
