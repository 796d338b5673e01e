import { bankAccountOperations } from '../../catalog/bank-accounts';
import { createBankAccount, verifyBankAccount } from '../../domain/bank-accounts/bank-accounts';
import { serve, type Served } from '../operation';

export const bankAccountHandlers: Served[] = [
  serve(bankAccountOperations.create, ({ services, scope, body, idempotency }) =>
    createBankAccount(services.objects, scope, body, idempotency),
  ),
  serve(bankAccountOperations.verify, ({ services, scope, params, body }) =>
    verifyBankAccount(services, scope, params.id, body.amounts),
  ),
];
