// Campaigns over HTTP on both databases: the campaign and its creatives as the catalog declares them, a
// creative checked like a create of its kind, and runs: an address-book audience of 50 makes 50 pieces
// carrying the campaign, once each; a second send of a campaign without a schedule is refused; the
// events are recorded.
import { databaseSuite } from '../../helpers/suite';
import { FROM, TO } from '../../helpers/mail';
import { BACK, FRONT, campaignPieces, newCampaign, postcardCreative, settledRun } from '../../helpers/campaign';
import { startReceiver } from '../../helpers/receiver';
import { vendorResponseErrors } from '../../helpers/vendorSchema';

// webhooks may call the test's receiver on loopback
const { test, serial } = databaseSuite({ env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' } });

const campaign = newCampaign;
const settled = settledRun;
const piecesOf = campaignPieces;

test('a campaign has the vendor fields and ours; pause and resume through update; delete', async (t, { api }) => {
  const created = await campaign(t, api, {
    description: 'Weekly',
    metadata: { team: 'growth' },
    schedule: { cron: '0 9 * * 1' },
    audience: { metadata: { segment: 'new' }, created_since_last_run: true },
  });
  t.regex(created.id, /^cmp_/);
  t.like(created, {
    object: 'campaign',
    name: 'Winter',
    description: 'Weekly',
    schedule_type: 'immediate',
    use_type: 'marketing',
    status: 'scheduled',
    schedule: { cron: '0 9 * * 1', time_zone: 'UTC' },
    auto_cancel_if_ncoa: false,
    billing_group_id: null,
    metadata: { team: 'growth' },
  });
  const paused = await api('PATCH', `/v1/campaigns/${created.id}`, { json: { status: 'paused' } });
  t.is(paused.body.status, 'paused');
  const resumed = await api('PATCH', `/v1/campaigns/${created.id}`, { json: { status: 'scheduled' } });
  t.is(resumed.body.status, 'scheduled');
  t.is((await api('PATCH', `/v1/campaigns/${created.id}`, { json: { status: 'running' } })).status, 422);
  t.is((await campaign(t, api)).status, 'draft');
  const cancelled = await campaign(t, api);
  t.is(
    (await api('PATCH', `/v1/campaigns/${cancelled.id}`, { json: { status: 'cancelled' } })).body.status,
    'cancelled',
  );
  t.is((await api('POST', `/v1/campaigns/${cancelled.id}/send`)).status, 422, 'a cancelled campaign sends nothing');
  const list = await api('GET', '/v1/campaigns?limit=100');
  t.true(list.body.data.some((c: { id: string }) => c.id === created.id));
  t.is((await api('DELETE', `/v1/campaigns/${created.id}`)).body.deleted, true);
  t.is((await api('GET', `/v1/campaigns/${created.id}`)).status, 404);
  t.is((await api('POST', `/v1/campaigns/${created.id}/send`)).status, 404);
});

test('a creative is checked as a create of its kind; an inline sender is saved once', async (t, { api }) => {
  const { id } = await campaign(t, api);
  const creative = await postcardCreative(t, api, id, { details: { size: '6x9' } });
  t.regex(creative.from, /^adr_/);
  const shown = await api('GET', `/v1/campaigns/${id}`);
  t.like(shown.body, { is_draft: true, uploads: [] });
  t.deepEqual(
    shown.body.creatives.map((c: { id: string }) => c.id),
    [creative.id],
  );
  t.deepEqual(
    vendorResponseErrors('GET', `/v1/campaigns/${id}`, 200, shown.body),
    [],
    'the vendor schema of a campaign',
  );
  t.is(
    (await api('GET', '/v1/campaigns?limit=100')).body.data.find((c: { id: string }) => c.id === id).creatives.length,
    1,
  );
  t.like(creative, { object: 'creative', resource_type: 'postcard', campaign_id: id, details: { size: '6x9' } });
  const refused = async (json: Record<string, unknown>) => {
    const reply = await api('POST', '/v1/creatives', { json: { campaign_id: id, ...json } });
    t.is(reply.status, 422, JSON.stringify(reply.body));
    return reply.body.error.message as string;
  };
  t.regex(await refused({ resource_type: 'postcard', front: FRONT, details: {} }), /back/);
  t.regex(await refused({ resource_type: 'postcard', front: FRONT, back: BACK, details: { size: '5x5' } }), /size/);
  t.regex(await refused({ resource_type: 'letter', from: FROM, file: FRONT, details: { color: 'blue' } }), /color/);
  t.regex(await refused({ resource_type: 'postcard', front: FRONT, back: BACK, file: FRONT, details: {} }), /file/);
  const letter = await api('POST', '/v1/creatives', {
    json: { resource_type: 'letter', campaign_id: id, from: FROM, file: FRONT, details: { color: true } },
  });
  t.is(letter.status, 200, JSON.stringify(letter.body));
  const missing = await api('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: 'cmp_nothere', front: FRONT, back: BACK, details: {} },
  });
  t.is(missing.status, 404);
  const listed = await api('GET', `/v1/creatives?campaign_id=${id}`);
  t.is(listed.body.data.length, 2);
  t.is((await api('DELETE', `/v1/campaigns/${id}`)).status, 200);
  t.is((await api('GET', `/v1/creatives/${creative.id}`)).status, 404, 'creatives go with their campaign');
});

serial(
  'a run of 50 address-book recipients makes 50 pieces once; a second send of a sent one-shot campaign is refused; events',
  async (t, { api }) => {
    const segment = `s${Date.now()}`;
    const addresses: string[] = [];
    for (let i = 0; i < 50; i++) {
      const reply = await api('POST', '/v1/addresses', {
        json: { ...TO, name: `Recipient ${i}`, metadata: { segment } },
      });
      t.is(reply.status, 200, JSON.stringify(reply.body));
      addresses.push(reply.body.id);
    }
    await api('POST', '/v1/addresses', { json: { ...TO, metadata: { segment: 'other' } } });
    const cmp = await campaign(t, api, { audience: { metadata: { segment } } });
    await postcardCreative(t, api, cmp.id);

    const send = await api('POST', `/v1/campaigns/${cmp.id}/send`, {
      headers: { 'Idempotency-Key': `send-${cmp.id}` },
    });
    t.is(send.status, 200, JSON.stringify(send.body));
    t.like(send.body, { object: 'campaign_run', campaign_id: cmp.id, trigger: 'manual', status: 'running' });
    const again = await api('POST', `/v1/campaigns/${cmp.id}/send`, {
      headers: { 'Idempotency-Key': `send-${cmp.id}` },
    });
    t.is(again.body.id, send.body.id, 'the same key sends once');
    const first = await settled(api, cmp.id, send.body.id);
    t.like(first, { status: 'completed', recipients: 50, pieces_created: 50, skipped_count: 0, failure_reason: null });
    t.truthy(first.date_completed);

    let pieces = await piecesOf(api, cmp.id);
    t.is(pieces.length, 50);
    t.true(pieces.every((p) => p.campaign_id === cmp.id));
    t.deepEqual(pieces.map((p) => p.to.id).sort(), [...addresses].sort());

    const second = await api('POST', `/v1/campaigns/${cmp.id}/send`);
    t.is(second.status, 422, JSON.stringify(second.body));
    t.like(second.body.error, { code: 'conflict', status_code: 422 });
    t.regex(second.body.error.message, /sent once/);
    pieces = await piecesOf(api, cmp.id);
    t.is(pieces.length, 50);
    const runs = await api('GET', `/v1/campaigns/${cmp.id}/runs`);
    t.deepEqual(
      runs.body.data.map((r: { id: string }) => r.id),
      [send.body.id],
    );
    t.is((await api('GET', `/v1/campaigns/${cmp.id}`)).body.status, 'completed');

    const events = async (type: string) => {
      const reply = await api('GET', `/v1/events?event_type=${type}&limit=100`);
      return (reply.body.data as { body: { id: string; campaign_id?: string } }[]).filter(
        (e) => e.body.id === cmp.id || e.body.campaign_id === cmp.id,
      );
    };
    t.is((await events('campaign.created')).length, 1);
    t.is((await events('campaign.run_started')).length, 1);
    t.is((await events('campaign.run_completed')).length, 1);
  },
);

test('a run skips recipients it cannot mail and says why; a campaign without creatives fails its run', async (t, {
  api,
}) => {
  const good = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
  const gone = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
  await api('DELETE', `/v1/addresses/${gone}`);
  const cmp = await campaign(t, api, { audience: { address_ids: [good, gone] } });
  const bare = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settled(api, cmp.id, bare.body.id), {
    status: 'failed',
    failure_reason: 'the campaign has no creatives',
  });
  const failed = await api('GET', '/v1/events?event_type=campaign.run_failed&limit=100');
  t.true(failed.body.data.some((e: { body: { id: string } }) => e.body.id === bare.body.id));

  const creative = await postcardCreative(t, api, cmp.id);
  const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  const done = await settled(api, cmp.id, run.body.id);
  t.like(done, { status: 'completed', recipients: 2, pieces_created: 1, skipped_count: 1 });
  t.like(done.skipped[0], { address_id: gone, creative_id: creative.id });
  t.regex(done.skipped[0].reason, /not found/);
});

test('a schedule node-cron cannot read, or an unknown time zone, is refused', async (t, { api }) => {
  const refused = async (schedule: unknown) => {
    const reply = await api('POST', '/v1/campaigns', {
      json: { name: 'Bad', schedule_type: 'immediate', use_type: 'marketing', schedule },
    });
    t.is(reply.status, 422, JSON.stringify(reply.body));
    return reply.body.error.message as string;
  };
  t.regex(await refused({ cron: '61 * * * *' }), /schedule\.cron/);
  t.regex(await refused({ cron: '0 9 * * *', time_zone: 'Mars/Olympus' }), /time_zone/);
  const { id } = await campaign(t, api);
  const update = await api('PATCH', `/v1/campaigns/${id}`, { json: { schedule: { cron: '0 25 * * *' } } });
  t.is(update.status, 422);
});

serial('a cron schedule starts runs by itself, each tick once; paused, it starts none', async (t, { api }) => {
  const address = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
  const cmp = await campaign(t, api, { schedule: { cron: '*/2 * * * * *' }, audience: { address_ids: [address] } });
  t.is(cmp.status, 'scheduled');
  await postcardCreative(t, api, cmp.id);
  const runs = async () =>
    (await api('GET', `/v1/campaigns/${cmp.id}/runs?limit=100`)).body.data as {
      id: string;
      trigger: string;
      scheduled_for: string;
      status: string;
    }[];
  let seen = await runs();
  for (let i = 0; i < 200 && seen.filter((r) => r.status === 'completed').length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    seen = await runs();
  }
  const done = seen.filter((r) => r.status === 'completed');
  t.true(done.length >= 2, JSON.stringify(seen));
  t.true(done.every((r) => r.trigger === 'schedule' && new Date(r.scheduled_for).getUTCSeconds() % 2 === 0));
  t.is(new Set(seen.map((r) => r.scheduled_for)).size, seen.length, 'one run a tick');

  t.is((await api('PATCH', `/v1/campaigns/${cmp.id}`, { json: { status: 'paused' } })).body.status, 'paused');
  // a run that started before the pause may still settle; none starts after it
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const atPause = (await runs()).length;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  t.is((await runs()).length, atPause);
  t.is((await api('GET', `/v1/campaigns/${cmp.id}`)).body.status, 'paused');
});

test('the events of a run reach a webhook: started, then completed, with the run', async (t, { api }) => {
  const receiver = await startReceiver();
  try {
    const address = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
    const cmp = await campaign(t, api, { audience: { address_ids: [address] } });
    await postcardCreative(t, api, cmp.id);
    const hook = await api('POST', '/v1/webhooks', {
      json: { url: receiver.url, event_types: ['campaign.run_started', 'campaign.run_completed'] },
    });
    t.is(hook.status, 200, JSON.stringify(hook.body));
    const run = (await api('POST', `/v1/campaigns/${cmp.id}/send`)).body.id as string;
    // the account's other runs (tests running beside this one) reach the webhook too: only this run's count
    type Delivered = { event_type: { id: string }; body: { id: string; status: string } };
    let delivered: Delivered[] = [];
    for (let count = 2; delivered.length < 2; count++)
      delivered = (await receiver.waitFor(count, 30_000))
        .map((r) => JSON.parse(r.body) as Delivered)
        .filter((e) => e.body.id === run);
    t.deepEqual(
      delivered.map((e) => [e.event_type.id, e.body.id, e.body.status]),
      [
        ['campaign.run_started', run, 'running'],
        ['campaign.run_completed', run, 'completed'],
      ],
    );
  } finally {
    await receiver.close();
  }
});
