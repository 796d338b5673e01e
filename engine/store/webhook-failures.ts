// A webhook's deliveries that ran out of attempts: how long the webhook has been failing (to disable
// it after WEBHOOK_DISABLE_AFTER_HOURS) and replays, which put failed deliveries back in the queue.
import type { Knex } from 'knex';
import type { ObjectColumns } from './columns';
import type { Scope } from './scope';
import { parseStored } from './stored';
import { newId } from '../base/ids';
import { nowIso } from '../base/time';

interface AttemptRow {
  webhook_id: string;
  status: string;
  date_created: string;
}

interface DeliveryRow {
  seq: number;
  webhook_id: string;
  event_id: string;
  event_type: string;
  account_id: string;
  mode: Scope['mode'];
  state: string;
}

/**
 * When the webhook's current run of failures began: its oldest failed attempt since its last
 * succeeded one and since `notBefore`, or undefined when there is none.
 */
export async function failingSince(knex: Knex, webhookId: string, notBefore: string): Promise<string | undefined> {
  const lastSuccess = await knex<AttemptRow>('webhook_attempts')
    .max({ at: 'date_created' })
    .where({ webhook_id: webhookId, status: 'succeeded' })
    .first();
  const after = lastSuccess?.at && lastSuccess.at > notBefore ? lastSuccess.at : notBefore;
  const first = await knex<AttemptRow>('webhook_attempts')
    .min({ at: 'date_created' })
    .where({ webhook_id: webhookId, status: 'failed' })
    .where('date_created', '>=', after)
    .first();
  return first?.at ?? undefined;
}

/**
 * A disabled webhook's waiting deliveries are marked failed (not dropped), so they can be replayed
 * once it is enabled again; a deleted webhook's are skipped. Each failed one gets a record in its list
 * of attempts (attempt 0, no answer, `reason` as its excerpt), so the deliveries list shows every failed
 * delivery, attempted or not, and why.
 */
export async function setAsidePending(
  knex: Knex,
  webhookId: string,
  deleted: boolean,
  reason = 'the webhook is disabled: enable it again to replay them',
): Promise<void> {
  if (deleted) {
    await knex('webhook_deliveries').where({ webhook_id: webhookId, state: 'pending' }).update({ state: 'skipped' });
    return;
  }
  await knex.transaction(async (trx) => {
    const query = trx<DeliveryRow>('webhook_deliveries')
      .select('seq', 'account_id', 'mode', 'event_id', 'event_type')
      .where({ webhook_id: webhookId, state: 'pending' });
    const rows = await (trx.client.config.client === 'pg' ? query.forUpdate() : query);
    const date = nowIso();
    for (let i = 0; i < rows.length; i += 100) {
      const chunk = rows.slice(i, i + 100);
      await trx('webhook_deliveries')
        .whereIn(
          'seq',
          chunk.map((r) => r.seq),
        )
        .update({ state: 'failed' });
      await trx('webhook_attempts').insert(
        chunk.map((r) => ({
          id: newId('whd'),
          webhook_id: webhookId,
          account_id: r.account_id,
          mode: r.mode,
          delivery_seq: r.seq,
          event_id: r.event_id,
          event_type: r.event_type,
          attempt: 0,
          status: 'failed',
          response_status: null,
          duration_ms: 0,
          response_excerpt: `not attempted: ${reason}`.slice(0, 500),
          date_created: date,
        })),
      );
    }
  });
}

/** Where the webhook's latest delivery of the event stands, or undefined when it had none. */
export async function deliveryStateOf(
  knex: Knex,
  scope: Scope,
  webhookId: string,
  eventId: string,
): Promise<string | undefined> {
  const row = await knex<DeliveryRow>('webhook_deliveries')
    .select('state')
    .where({ webhook_id: webhookId, event_id: eventId, account_id: scope.accountId, mode: scope.mode })
    .orderBy('seq', 'desc')
    .first();
  return row?.state;
}

/**
 * Queues failed deliveries again (all of the webhook's, or those of one event): each is pending with
 * its attempts counted afresh and due now. A delivery keeps its place (seq), so replayed events go
 * out in the order they happened, before any of the webhook's later events still waiting.
 */
export async function replayFailed(knex: Knex, webhookId: string, eventId?: string): Promise<number> {
  const query = knex('webhook_deliveries').where({ webhook_id: webhookId, state: 'failed' });
  if (eventId !== undefined) query.where({ event_id: eventId });
  return query.update({ state: 'pending', attempts: 0, next_attempt_at: Date.now() });
}

/** How many deliveries of each webhook given are failed (for /health and the CLI). */
export async function failedCounts(knex: Knex, webhookIds: readonly string[]): Promise<Map<string, number>> {
  if (webhookIds.length === 0) return new Map();
  const rows = await knex<DeliveryRow>('webhook_deliveries')
    .select('webhook_id')
    .count({ n: '*' })
    .whereIn('webhook_id', webhookIds)
    .where({ state: 'failed' })
    .groupBy('webhook_id');
  return new Map(rows.map((r) => [r.webhook_id, Number(r.n)]));
}

export interface DisabledWebhook {
  id: string;
  account_id: string;
  mode: string;
  disabled_reason: string;
  /** its deliveries waiting for a replay */
  failed_deliveries: number;
}

/** Webhooks the engine disabled (they carry a reason), newest change first, at most `limit`. */
export async function disabledWebhooks(knex: Knex, limit: number): Promise<DisabledWebhook[]> {
  // through the objects' scope index (account, mode, kind), not a scan of every object
  const accounts = knex('accounts').select('id');
  const rows = await knex<ObjectColumns>('objects')
    .select('id', 'account_id', 'mode', 'body')
    .whereIn('account_id', accounts)
    .whereIn('mode', ['test', 'live'])
    .where({ kind: 'webhooks', deleted: false })
    .where('body', 'like', '%"disabled_reason":"%')
    .orderBy('date_modified', 'desc')
    .limit(limit);
  const hooks = rows.flatMap((r) => {
    const { enabled, disabled_reason: reason } = parseStored('webhooks', r.body);
    return enabled === false && typeof reason === 'string' ? [{ ...r, reason }] : [];
  });
  const failed = await failedCounts(
    knex,
    hooks.map((h) => h.id),
  );
  return hooks.map((h) => ({
    id: h.id,
    account_id: h.account_id,
    mode: h.mode,
    disabled_reason: h.reason,
    failed_deliveries: failed.get(h.id) ?? 0,
  }));
}
