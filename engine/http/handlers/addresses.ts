import { createAddress, deleteAddress } from '../../domain/addresses/address-book';
import { addressOperations } from '../../catalog/addresses';
import { serve, type Served } from '../operation';

export const addressHandlers: Served[] = [
  serve(addressOperations.create, ({ services, scope, caller, body, idempotency }) =>
    createAddress(services, scope, caller.account.settings, body, idempotency),
  ),
  serve(addressOperations.delete, ({ services, scope, params }) => deleteAddress(services, scope, params.id)),
];
