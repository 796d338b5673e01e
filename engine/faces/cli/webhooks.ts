// What an operator does to a webhook from the CLI: send it a sample event now (to see a receiver
// answer, signature included), queue an event it had, or missed, to be delivered again, or see the
// webhooks the engine disabled after failing too long.
import { catalog, findResource } from '../../catalog';
import { enabledForTest } from '../../catalog/event-types';
import type { Services } from '../../domain/services';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { attempt } from '../../domain/events/delivery';
import type { AttemptOutcome } from '../../store/webhook-deliveries';
import { parseArgs } from 'node:util';
import { CommandRefused } from '../../base/errors';
import { UsageError, withServices } from './common';

/** A sample event of the webhook's first type (the catalog's sample object as its body), sent once. */
export async function sendTestEvent(services: Services, webhookId: string): Promise<AttemptOutcome> {
  const target = await services.store.webhookDeliveries.webhookTarget(webhookId);
  if (!target) throw new CommandRefused(`no webhook ${webhookId}`);
  const hook = await services.objects.get(target.scope, 'webhooks', webhookId);
  const types = Array.isArray(hook?.event_types) ? hook.event_types.map(String) : [];
  const type = types.find((t) => t !== '*') ?? 'address.created';
  const resource = catalog.find((r) => r.events.includes(type)) ?? findResource('addresses') ?? catalog[0];
  const body = JSON.stringify({
    id: newId('evt'),
    body: resource.sample,
    reference_id: String(resource.sample.id ?? ''),
    event_type: { id: type, enabled_for_test: enabledForTest(type), resource: resource.name, object: 'event_type' },
    date_created: nowIso(),
    object: 'event',
  });
  return attempt(target, body, {
    timeoutMs: services.config.webhookTimeoutMs,
    retryBaseMs: services.config.webhookRetryBaseMs,
    allowedNetworks: services.config.allowedPrivateNetworks,
  });
}

/** Queues the event for the webhook again (same account and mode); the workers deliver it in its turn. */
export async function replayEvent(services: Services, eventId: string, webhookId: string): Promise<void> {
  const target = await services.store.webhookDeliveries.webhookTarget(webhookId);
  if (!target) throw new CommandRefused(`no webhook ${webhookId}`);
  if (!(await services.store.webhookDeliveries.queueDelivery(target.scope, webhookId, eventId)))
    throw new CommandRefused(`no event ${eventId} in the account and mode of ${webhookId}`);
}

/** The webhooks the engine disabled, a line each: id, account, mode, failed deliveries, reason. */
export async function disabledWebhookLines(services: Services): Promise<string> {
  const hooks = await services.store.webhookFailures.disabledWebhooks(1_000);
  if (hooks.length === 0) return 'no webhook is disabled\n';
  return hooks
    .map((h) => `${h.id}\t${h.account_id}\t${h.mode}\t${h.failed_deliveries} failed\t${h.disabled_reason}\n`)
    .join('');
}

/**
 * `printpost webhooks VERB ID [--webhook WEBHOOK_ID]`: what it prints; a CommandRefused when the
 * engine refuses (an unknown webhook or event, a receiver that did not take the test).
 */
export async function webhookCommand(
  services: Services,
  verb: string,
  id: string | undefined,
  webhook: string | undefined,
): Promise<string> {
  if (verb === 'disabled') return disabledWebhookLines(services);
  if (verb === 'replay' && id && webhook) {
    await replayEvent(services, id, webhook);
    return `queued ${id} for ${webhook}\n`;
  }
  if (verb !== 'test' || !id) throw new CommandRefused(`unknown webhooks command ${verb}`);
  const outcome = await sendTestEvent(services, id);
  const status = outcome.responseStatus === null ? 'no answer' : `HTTP ${outcome.responseStatus}`;
  const line = `${outcome.status}\t${status}\t${outcome.durationMs} ms\t${outcome.excerpt}\n`;
  if (outcome.status !== 'succeeded') throw new CommandRefused(`${line}the receiver did not take it (${status})`);
  return line;
}

/** The `printpost webhooks` command's `--help`, beside what it does. */
export const WEBHOOK_HELP = {
  webhooks: `Usage: printpost webhooks test WEBHOOK_ID
       printpost webhooks replay EVENT_ID --webhook WEBHOOK_ID
       printpost webhooks disabled

test sends the webhook one sample event now, signed with its secret, and prints the answer (status,
time, its first bytes); nothing is recorded. replay queues an event of the webhook's account and mode
to be delivered to it again; the workers of a running engine deliver it in its turn. disabled lists the
webhooks the engine disabled (failing for WEBHOOK_DISABLE_AFTER_HOURS) with their reason.`,
};

export async function webhooks(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { webhook: { type: 'string' } } });
  const [verb, id, ...extra] = positionals;
  const known = verb === 'disabled' ? !id : (verb === 'test' || (verb === 'replay' && values.webhook)) && id;
  if (!known || extra.length > 0) throw new UsageError(WEBHOOK_HELP.webhooks);
  const out = await withServices((services) => webhookCommand(services, verb, id, values.webhook));
  process.stdout.write(out);
}
