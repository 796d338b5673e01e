// Live requests need a payment method on file; live creates also need a verified e-mail.
import type { Knex } from 'knex';
import { ApiError } from '../errors';
import type { Caller } from '../accounts/accounts';
import type { Operation } from '../catalog/types';
import { takeFreeVerification } from '../verify/quota';

/** The one payment-method gate: operations with a free monthly quota spend it instead (403 once spent). */
export async function assertLiveAllowed(caller: Caller, operation: Operation, knex: Knex): Promise<void> {
  if (caller.mode !== 'live') return;
  const settings = caller.account.settings;
  if (!settings.payment_method_verified) {
    if (!operation.freeLiveQuota) {
      throw new ApiError('payment_method_unverified', 'A verified payment method (credit card or bank account) is required for live requests.', 401);
    }
    await takeFreeVerification(knex, caller.account.id, operation.freeLiveQuota);
  }
  if (!settings.email_verified && operation.name === 'create') {
    throw new ApiError('email_required', 'A verified e-mail address is required before creating live resources.', 401);
  }
}
