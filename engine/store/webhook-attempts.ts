// A webhook's delivery attempts read back (GET /v1/webhooks/{id}/deliveries): each attempt with what
// the receiver answered and where its delivery stands now, newest first, a page at a time.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface AttemptRecord {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  delivery_status: string;
  response_status: number | null;
  duration_ms: number;
  response_excerpt: string;
  date_created: string;
  object: 'webhook_delivery';
}

/** A webhook's attempts, newest first, a page at a time (keyset on date and id). */
export async function listAttempts(
  knex: Knex,
  scope: Scope,
  webhookId: string,
  limit: number,
  after?: { date: string; id: string },
  deliveryStatus?: string,
): Promise<{ data: AttemptRecord[]; more: boolean }> {
  const query = knex('webhook_attempts as a')
    .join('webhook_deliveries as d', 'd.seq', 'a.delivery_seq')
    .select(
      'a.id',
      'a.webhook_id',
      'a.event_id',
      'a.event_type',
      'a.attempt',
      'a.status',
      { delivery_status: 'd.state' },
      'a.response_status',
      'a.duration_ms',
      'a.response_excerpt',
      'a.date_created',
    )
    .where({ 'a.account_id': scope.accountId, 'a.mode': scope.mode, 'a.webhook_id': webhookId })
    .orderBy([
      { column: 'a.date_created', order: 'desc' },
      { column: 'a.id', order: 'desc' },
    ])
    .limit(limit + 1);
  if (deliveryStatus) query.where('d.state', deliveryStatus);
  if (after) query.whereRaw('(a.date_created, a.id) < (?, ?)', [after.date, after.id]);
  const rows = (await query) as Omit<AttemptRecord, 'object'>[];
  return {
    data: rows.slice(0, limit).map((r) => ({
      ...r,
      attempt: Number(r.attempt),
      duration_ms: Number(r.duration_ms),
      object: 'webhook_delivery',
    })),
    more: rows.length > limit,
  };
}
