// Delivering one webhook's events, in order: its first waiting delivery is attempted (signed POST
// behind the network guard, WEBHOOK_TIMEOUT_MS, no redirects), the attempt is recorded with what came
// back, and a failure waits WEBHOOK_RETRY_BASE_MS doubled per attempt, 8 attempts in all, before the
// webhook's next event goes: a receiver sees its events in the order they happened. A delivery out of
// attempts is kept as failed (listed, and replayed on request); a webhook failing without a success
// for WEBHOOK_DISABLE_AFTER_HOURS is disabled with its reason. One job per
// webhook at a time (a singleton key), so a slow receiver holds up only its own events.
import { FetchRefused } from '../../platform/net/guarded-fetch';
import { guardedPost } from '../../platform/net/guarded-post';
import type { AttemptOutcome, WebhookTarget } from '../../store/webhook-deliveries';
import type { Store } from '../../store/store';
import { signedHeaders } from '../../protocol/webhook-signature';
import { signEventText, type LinkSigner } from '../../platform/assets/links';
import type { AccountSlots } from './account-slots';

export const DELIVERY_ATTEMPTS = 8;
const MAX_WAIT_MS = 3_600_000;

export interface DeliveryLimits {
  timeoutMs: number;
  retryBaseMs: number;
  allowedNetworks: ReadonlySet<string>;
  /**
   * signs the file links of an event's object as each attempt goes out, so a receiver gets links it can
   * fetch (stored events keep file keys; a link signed at commit would expire in the outbox)
   */
  links?: () => LinkSigner;
  /**
   * a webhook failing without a success for this long is disabled through `disable` (its reason kept
   * on it); without these it is never disabled
   */
  disableAfterMs?: number;
  disable?: (target: WebhookTarget, reason: string) => Promise<void>;
  /** told of each attempt's outcome (GET /metrics) */
  observe?: (outcome: AttemptOutcome) => void;
}

/** Disables the webhook when its failures go back past the limit; true when it did. */
async function disableIfFailingTooLong(store: Store, target: WebhookTarget, limits: DeliveryLimits): Promise<boolean> {
  if (!limits.disable || limits.disableAfterMs === undefined) return false;
  const since = await store.webhookFailures.failingSince(target.id, target.modified);
  if (since === undefined || Date.now() - Date.parse(since) < limits.disableAfterMs) return false;
  const hours = limits.disableAfterMs / 3_600_000;
  const reason = `every delivery has failed since ${since}, longer than WEBHOOK_DISABLE_AFTER_HOURS (${hours} h): enable it again to replay them`;
  // its waiting deliveries first, so once it shows disabled they all show failed
  await store.webhookFailures.setAsidePending(target.id, false, `the webhook was disabled: ${reason}`);
  await limits.disable(target, reason);
  return true;
}

/** When a delivery that failed `attempt` times is tried again, or undefined once it has had every attempt. */
export function retryAt(attempt: number, base: number, now = Date.now()): number | undefined {
  if (attempt >= DELIVERY_ATTEMPTS) return undefined;
  return now + Math.min(MAX_WAIT_MS, base * 2 ** (attempt - 1));
}

/** One signed POST of the stored event; what came back, or why nothing did. */
export async function attempt(target: WebhookTarget, stored: string, limits: DeliveryLimits): Promise<AttemptOutcome> {
  const started = Date.now();
  try {
    const body = limits.links ? signEventText(stored, limits.links()) : stored;
    const answer = await guardedPost(target.url, body, signedHeaders(target, body), {
      timeoutMs: limits.timeoutMs,
      allowedNetworks: limits.allowedNetworks,
    });
    const ok = answer.status >= 200 && answer.status < 300;
    return {
      status: ok ? 'succeeded' : 'failed',
      responseStatus: answer.status,
      durationMs: Date.now() - started,
      excerpt: answer.excerpt,
    };
  } catch (error) {
    // the setting this process read: `printpost webhooks test` must be given the engine's own
    const why =
      error instanceof FetchRefused
        ? error.reason === 'private_network'
          ? `${error.message} (ALLOWED_PRIVATE_NETWORKS here: ${[...limits.allowedNetworks].join(',') || 'none'})`
          : error.message
        : `delivery failed: ${String(error)}`;
    return { status: 'failed', responseStatus: null, durationMs: Date.now() - started, excerpt: why.slice(0, 500) };
  }
}

/** Deliveries read at once, in order. */
const BATCH = 100;

/**
 * Works through the webhook's due deliveries in order, for at most `budgetMs` (then its job ends and
 * the sweep queues the next); stops at the first that must wait, or on `signal` (a lost lease). Each
 * attempt is recorded as soon as it is answered, so a kill -9 sends again only the one delivery in
 * flight (whose answer was not recorded): a receiver de-duplicates on the event id.
 */
export async function deliverWebhook(
  store: Store,
  webhookId: string,
  limits: DeliveryLimits,
  budgetMs: number,
  signal?: AbortSignal,
  slots?: AccountSlots,
): Promise<void> {
  const until = Date.now() + budgetMs;
  const target = await store.webhookDeliveries.webhookTarget(webhookId);
  if (!target || !target.enabled) return store.webhookFailures.setAsidePending(webhookId, !target);
  // over its account's fair share of this process's slots: left due, queued again by the next pass
  const release = slots ? slots.take(target.scope.accountId) : () => undefined;
  if (!release) return;
  try {
    await deliverInOrder(store, target, limits, until, signal);
  } finally {
    release();
  }
}

async function deliverInOrder(
  store: Store,
  first: WebhookTarget,
  limits: DeliveryLimits,
  until: number,
  signal?: AbortSignal,
): Promise<void> {
  let target = first;
  let fresh = true;
  for (;;) {
    const batch = await store.webhookDeliveries.pendingInOrder(target.id, BATCH);
    if (batch.length === 0) return;
    for (const due of batch) {
      if (due.nextAttemptAt > Date.now() || Date.now() > until) return;
      // the webhook as it is now, not as the job found it: a rotation, new URL or disable made while
      // this job runs applies to the very next attempt (a receiver on the new secret must not see the old)
      const now = fresh ? target : await store.webhookDeliveries.webhookTarget(target.id);
      fresh = false;
      if (!now || !now.enabled) return store.webhookFailures.setAsidePending(target.id, !now);
      target = now;
      const outcome = await attempt(target, due.body, limits);
      limits.observe?.(outcome);
      signal?.throwIfAborted(); // its lease ran out: the next job owns these deliveries (they are sent again)
      // a failure holds up the webhook's later events until it succeeds or has had every attempt
      const next = outcome.status === 'succeeded' ? undefined : retryAt(due.attempts + 1, limits.retryBaseMs);
      await store.webhookDeliveries.recordAttempts(target, [{ delivery: due, outcome, retryAt: next }]);
      // failing for longer than WEBHOOK_DISABLE_AFTER_HOURS: disabled, its waiting deliveries set aside
      if (outcome.status === 'failed' && (await disableIfFailingTooLong(store, target, limits))) return;
      if (next !== undefined) return;
    }
  }
}
