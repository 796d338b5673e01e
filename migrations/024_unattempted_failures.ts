import type { Knex } from 'knex';
import { randomBytes } from 'node:crypto';

// A delivery set aside as failed when its webhook was disabled now gets an attempt row of its own
// (attempt 0, no answer, why in its excerpt: store/webhook-failures.ts), so the deliveries list, which
// reads attempts, shows every failed delivery. Those set aside before had none and stayed invisible:
// each failed delivery without any attempt gets that row here, dated when the delivery was made.
const EXCERPT = 'not attempted: the webhook was disabled';

interface Unattempted {
  seq: number | string;
  webhook_id: string;
  account_id: string;
  mode: string;
  event_id: string;
  event_type: string;
  date_created: string;
}

export async function up(knex: Knex): Promise<void> {
  const rows: Unattempted[] = await knex('webhook_deliveries as d')
    .select('d.seq', 'd.webhook_id', 'd.account_id', 'd.mode', 'd.event_id', 'd.event_type', 'd.date_created')
    .where('d.state', 'failed')
    .whereNotExists(knex('webhook_attempts as a').select('a.id').whereRaw('a.delivery_seq = d.seq'))
    .orderBy('d.seq');
  for (let i = 0; i < rows.length; i += 100)
    await knex('webhook_attempts').insert(
      rows.slice(i, i + 100).map((r) => ({
        id: `whd_${randomBytes(8).toString('hex')}`,
        webhook_id: r.webhook_id,
        account_id: r.account_id,
        mode: r.mode,
        delivery_seq: Number(r.seq),
        event_id: r.event_id,
        event_type: r.event_type,
        attempt: 0,
        status: 'failed',
        response_status: null,
        duration_ms: 0,
        response_excerpt: EXCERPT,
        date_created: r.date_created,
      })),
    );
}

export async function down(knex: Knex): Promise<void> {
  await knex('webhook_attempts').where({ attempt: 0, response_excerpt: EXCERPT }).delete();
}
