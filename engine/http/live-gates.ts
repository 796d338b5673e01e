// Live requests need a payment method on file; live creates also need a verified e-mail.
import { ApiError } from '../errors';
import type { Caller } from '../accounts/accounts';
import type { Operation } from '../catalog/types';

export function assertLiveAllowed(caller: Caller, operation: Operation): void {
  if (caller.mode !== 'live') return;
  const settings = caller.account.settings;
  // Operations with a free monthly quota check the payment method themselves, once the quota is used.
  if (!settings.payment_method_verified && !operation.freeLiveQuota) {
    throw new ApiError('payment_method_unverified', 'A verified payment method (credit card or bank account) is required for live requests.', 401);
  }
  if (!settings.email_verified && operation.name === 'create') {
    throw new ApiError('email_required', 'A verified e-mail address is required before creating live resources.', 401);
  }
}
