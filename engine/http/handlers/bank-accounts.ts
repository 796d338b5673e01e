import { bankAccountSchemas } from '../../catalog/bank-accounts';
import { createBankAccount, verifyBankAccount } from '../../mail/bank-accounts';
import { typed, type Handler } from '../operation';

export const bankAccountHandlers: Record<string, Handler> = {
  create: typed(bankAccountSchemas.create, ({ services, scope, body, idempotency }) =>
    createBankAccount(services.objects, services.db.knex, scope, body, idempotency),
  ),
  verify: typed(bankAccountSchemas.verify, ({ services, scope, id, body }) =>
    verifyBankAccount(services.objects, scope, id!, body.amounts),
  ),
};
