// A campaign an AI agent made runs on its schedule in a worker with no caller, and each tick is held to
// the agent limits all the same, on SQLite and PostgreSQL: in live mode without agents_send_live the
// tick's run fails saying why, with no piece made and nothing counted; allowed, it makes its pieces,
// takes their places of the day and holds their send dates past the cancellation window.
import { connect } from '../../engine/store/connection';
import { readCounter } from '../../engine/store/counters';
import { agentPiecesOn } from '../../engine/domain/agents/limits';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import { FROM, TO, ok } from '../helpers/mail';
import { BACK, FRONT, campaignPieces, settledRun } from '../helpers/campaign';

const WINDOW_MINUTES = 5;
const { test } = databaseSuite({
  env: { KEY_CACHE_MS: '0' },
  settings: {
    payment_method_verified: true,
    email_verified: true,
    rate_limit_per_5s: 100000,
    agent_pieces_per_day: 10,
    cancellation_window_minutes: WINDOW_MINUTES,
  },
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A daily cron (with seconds) whose tick is three seconds from now. */
function tickSoon(): string {
  const tick = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_000);
  return `${tick.getUTCSeconds()} ${tick.getUTCMinutes()} ${tick.getUTCHours()} * * *`;
}

test('a scheduled run of an agent-driven campaign is held to the agent limits', async (t, { engine }) => {
  t.timeout(120_000);
  const human = client(engine.url, engine.keys.live);
  const agent: typeof human = (method, path, options = {}) =>
    human(method, path, { ...options, headers: { ...options.headers, 'Printpost-Agent': '1' } });
  const { knex } = connect(engine.databaseUrl, 1);
  t.teardown(() => knex.destroy());
  const row: { id: string } = await knex('accounts').where({ name: 'default' }).first('id');
  const counter = agentPiecesOn({ accountId: row.id, mode: 'live' }, new Date().toISOString().slice(0, 10));

  /** An agent's campaign to two people, ticking soon; its one run once it has ended. */
  const scheduledByAgent = async () => {
    const one = await ok(human, 'POST', '/v1/addresses', TO);
    const two = await ok(human, 'POST', '/v1/addresses', { ...TO, name: 'Ada Lovelace', address_line1: '1 Main St' });
    const campaign = await ok(agent, 'POST', '/v1/campaigns', {
      name: 'Weekly by an agent',
      schedule_type: 'immediate',
      use_type: 'marketing',
      schedule: { cron: tickSoon() },
      audience: { address_ids: [one.id, two.id] },
    });
    t.is(campaign.agent_driven, true, 'the campaign says an agent drives it');
    await ok(agent, 'POST', '/v1/creatives', {
      resource_type: 'postcard',
      campaign_id: campaign.id,
      from: FROM,
      front: FRONT,
      back: BACK,
      details: {},
    });
    const id = String(campaign.id);
    for (let i = 0; i < 150; i++) {
      const runs = (await human('GET', `/v1/campaigns/${id}/runs`)).body.data as { id: string }[];
      if (runs.length) return { id, run: await settledRun(human, id, runs[0].id) };
      await sleep(200);
    }
    throw new Error(`campaign ${id} never ran`);
  };

  const refused = await scheduledByAgent();
  t.like(refused.run, { trigger: 'schedule', status: 'failed', pieces_created: 0 });
  t.regex(String(refused.run.failure_reason), /AI agents may not send live mail/);
  t.is((await campaignPieces(human, refused.id)).length, 0);
  t.is(await readCounter(knex, counter), 0);

  await engine.setSetting('agents_send_live', true);
  const started = Date.now();
  const allowed = await scheduledByAgent();
  t.like(allowed.run, { trigger: 'schedule', status: 'completed', pieces_created: 2 });
  t.is(await readCounter(knex, counter), 2, 'the run took its two places');
  const pieces = await campaignPieces(human, allowed.id);
  t.is(pieces.length, 2);
  for (const piece of pieces)
    t.true(Date.parse(piece.send_date) >= started + WINDOW_MINUTES * 60_000, 'held past the cancellation window');
});
