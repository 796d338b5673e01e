// The delivery side of events, run by the workers: a loop fans newly committed events out to the
// webhooks that take them (store/webhook-deliveries.ts) and queues a delivery job for each webhook
// with something due; the jobs deliver (delivery.ts). Everything it needs is in the database, so a
// restart, a kill -9 or a second engine process loses nothing: the loop finds what is due again.
import type { Services } from '../services';
import { DELIVER_WEBHOOK, type DeliverWebhookData } from '../../platform/jobs/names';
import { deliverWebhook, type DeliveryLimits } from './delivery';
import { AccountSlots } from './account-slots';
import { pollLoop } from '../../base/poll-loop';
import { disableWebhook } from './webhooks';

/** Events fanned out per pass; a full pass is followed at once by the next. */
const BATCH = 500;
/**
 * How long one job keeps delivering before it makes room for the others: a few receiver time limits,
 * at most 20 s. Its lease covers that, one more attempt and a margin, and no more: after a kill -9 a
 * delivery in flight is sent again once the lease has run out.
 */
const budgetOf = (timeoutMs: number) => Math.min(20_000, Math.max(2_000, 4 * timeoutMs));

/**
 * Where a webhook's links point: PUBLIC_URL, else the address this process serves on (known once it
 * listens), else the configured HOST and PORT (a `printpost work` process serves nothing itself).
 */
function linkOrigin(services: Services): string {
  const { publicUrl, host, port } = services.config;
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  if (services.listenUrl) return services.listenUrl;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

export interface EventDelivery {
  stop(): Promise<void>;
}

export async function startEventDelivery(
  services: Services,
  options: { pollMs?: number; concurrency?: number } = {},
): Promise<EventDelivery> {
  const { config } = services;
  const { store } = services;
  const pollMs = options.pollMs ?? 100;
  const limits: DeliveryLimits = {
    timeoutMs: config.webhookTimeoutMs,
    retryBaseMs: config.webhookRetryBaseMs,
    allowedNetworks: config.allowedPrivateNetworks,
    links: () => ({ signer: services.signer, origin: linkOrigin(services) }),
    disableAfterMs: config.webhookDisableAfterHours * 3_600_000,
    disable: (target, reason) => disableWebhook(services, target.scope, target.id, reason),
    observe: (outcome) => services.metrics.deliveries.inc({ outcome: outcome.status }),
  };
  const concurrency = options.concurrency ?? 8;
  // one account's slow receivers hold at most half the slots: another account's events still go out
  const slots = new AccountSlots(Math.max(1, Math.floor(concurrency / 2)));
  await services.jobs.work<DeliverWebhookData>(
    DELIVER_WEBHOOK,
    {
      concurrency,
      leaseMs: budgetOf(config.webhookTimeoutMs) + 2 * config.webhookTimeoutMs + 5_000,
    },
    (job) => deliverWebhook(store, job.data.webhook, limits, budgetOf(config.webhookTimeoutMs), job.signal, slots),
  );

  const pass = async (): Promise<boolean> => {
    const fanned = await store.webhookDeliveries.dispatchEvents(BATCH);
    const due = new Set([...fanned, ...(await store.webhookDeliveries.webhooksDue())]);
    for (const webhook of due)
      await services.jobs.send(DELIVER_WEBHOOK, { webhook } satisfies DeliverWebhookData, {
        singletonKey: webhook,
        retryLimit: 0,
      });
    return fanned.length > 0 && due.size > 0;
  };
  return pollLoop(pass, {
    pollMs,
    onError: (error) =>
      process.stderr.write(`${JSON.stringify({ level: 'error', where: 'event dispatch', error: String(error) })}\n`),
  });
}
