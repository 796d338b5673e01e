// Migration 024 gives each failed delivery that never had an attempt (set aside when its webhook was
// disabled, before such deliveries got an attempt row of their own) an attempt 0 saying so, on both
// databases, so GET /v1/webhooks/{id}/deliveries lists it; deliveries with attempts, and those not
// failed, are left as they are.
import test from 'ava';
import { migrationSource } from '../../migrations';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

for (const db of DATABASES)
  test(`${db}: migration 024 lists every failed delivery never attempted as an attempt 0`, async (t) => {
    const { knex } = await freshStore(t, db);
    const names = await migrationSource.getMigrations([]);
    const before = names.indexOf('024_unattempted_failures');
    t.true(before > 0);
    for (let i = 0; i < before; i++) await knex.migrate.up({ migrationSource });
    const delivery = (event: string, state: string) => ({
      webhook_id: 'wh_dead',
      account_id: 'acct_dead',
      mode: 'test',
      event_id: event,
      event_type: 'address.created',
      state,
      attempts: 0,
      next_attempt_at: 0,
      date_created: '2026-11-20T18:39:45.123Z',
    });
    await knex('webhook_deliveries').insert([
      delivery('evt_never', 'failed'),
      delivery('evt_tried', 'failed'),
      delivery('evt_waiting', 'pending'),
    ]);
    const tried = (await knex('webhook_deliveries').where({ event_id: 'evt_tried' }).first('seq')) as { seq: number };
    await knex('webhook_attempts').insert({
      id: 'whd_0000000000000001',
      webhook_id: 'wh_dead',
      account_id: 'acct_dead',
      mode: 'test',
      delivery_seq: tried.seq,
      event_id: 'evt_tried',
      event_type: 'address.created',
      attempt: 8,
      status: 'failed',
      response_status: 500,
      duration_ms: 3,
      response_excerpt: 'answered 500',
      date_created: '2026-11-20T18:40:00.000Z',
    });
    await knex.migrate.latest({ migrationSource });
    const attempts = (await knex('webhook_attempts')
      .select('event_id', 'attempt', 'status', 'response_excerpt', 'date_created')
      .orderBy('event_id')) as Record<string, unknown>[];
    t.deepEqual(
      attempts.map((a) => ({ ...a, attempt: Number(a.attempt) })),
      [
        {
          event_id: 'evt_never',
          attempt: 0,
          status: 'failed',
          response_excerpt: 'not attempted: the webhook was disabled',
          date_created: '2026-11-20T18:39:45.123Z',
        },
        {
          event_id: 'evt_tried',
          attempt: 8,
          status: 'failed',
          response_excerpt: 'answered 500',
          date_created: '2026-11-20T18:40:00.000Z',
        },
      ],
    );
  });
