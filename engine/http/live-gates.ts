// Live requests need a payment method on file; live creates also need a verified e-mail.
// Operations with a free monthly allowance (US verification) spend it instead, once the request
// is known to be valid: a refused request is not a verification.
import { ApiError } from '../base/errors';
import type { Caller } from '../domain/accounts/accounts';
import type { Operation } from '../catalog/types';
import type { Services } from '../domain/services';
import { takeFreeVerification } from '../domain/verify/quota';

const needsAllowance = (caller: Caller, operation: Operation) =>
  caller.mode === 'live' && !caller.account.settings.payment_method_verified && Boolean(operation.freeLiveQuota);

/** Before anything is read: the account may make this live request at all. */
export function assertLiveAllowed(caller: Caller, operation: Operation): void {
  if (caller.mode !== 'live') return;
  const settings = caller.account.settings;
  if (!settings.payment_method_verified && !operation.freeLiveQuota) {
    throw new ApiError(
      'payment_method_unverified',
      'A verified payment method (credit card or bank account) is required for live requests.',
      401,
    );
  }
  if (!settings.email_verified && operation.name === 'create') {
    throw new ApiError('email_required', 'A verified e-mail address is required before creating live resources.', 401);
  }
}

/** After validation: without a payment method, take one of the month's free calls (403 once spent). */
export async function spendLiveAllowance(caller: Caller, operation: Operation, services: Services): Promise<void> {
  if (needsAllowance(caller, operation))
    await takeFreeVerification(services.store.counters, caller.account.id, operation.freeLiveQuota!);
}
