import { bankAccountOperations } from '../../catalog/bank-accounts';
import { createBankAccount, verifyBankAccount } from '../../mail/bank-accounts';
import { serve, type Served } from '../operation';

export const bankAccountHandlers: Served[] = [
  serve(bankAccountOperations.create, ({ services, scope, body, idempotency }) =>
    createBankAccount(services.objects, services.db.knex, scope, body, idempotency),
  ),
  serve(bankAccountOperations.verify, ({ services, scope, params, body }) =>
    verifyBankAccount(services.objects, scope, params.id, body.amounts),
  ),
];
