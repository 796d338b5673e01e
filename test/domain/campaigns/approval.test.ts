// Campaign approval over HTTP on both databases, with the workers (Chromium) and a print room folder:
// a campaign requires approval by choice, or in live mode by the account's setting; approve and reject
// record who and when with their events; a live campaign awaiting approval renders its pieces but
// hands none to production (a piece made after them, with no campaign, is produced meanwhile), and
// its approval sends them; a rejection cancels the pieces and refuses further sends; a change of what an
// approved campaign mails (settings, creatives, audience) puts it back to pending.
import test, { type ExecutionContext } from 'ava';
import { DATABASES } from '../../helpers/matrix';
import { FROM, TO, postcard } from '../../helpers/mail';
import { BACK, FRONT, campaignPieces, settledRun } from '../../helpers/campaign';
import { liveAccount, ticketFiles, ticketOf, until, type Call } from '../production/production-helpers';
import { created, enginePerDatabase, get, rendered, type Setup } from '../production/lifecycle-helpers';

const engines = enginePerDatabase();
test.after.always(() => engines.close());

interface Campaign {
  id: string;
  requires_approval: boolean;
  approval: { status: string; decided_by: string | null; decided_at: string | null; reason: string | null } | null;
}

async function liveCampaign(t: ExecutionContext, live: Call, extra: Record<string, unknown> = {}) {
  const address = await live<{ id: string }>('POST', '/v1/addresses', { json: TO });
  t.is(address.status, 200, JSON.stringify(address.body));
  const reply = await live<Campaign>('POST', '/v1/campaigns', {
    json: {
      name: 'Approved mailer',
      schedule_type: 'immediate',
      use_type: 'marketing',
      audience: { address_ids: [address.body.id] },
      ...extra,
    },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  const creative = await live('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: reply.body.id, from: FROM, front: FRONT, back: BACK, details: {} },
  });
  t.is(creative.status, 200, JSON.stringify(creative.body));
  return reply.body;
}

/** Sends the campaign and waits for its one piece to render. */
async function sentAndRendered(t: ExecutionContext, live: Call, campaignId: string) {
  const run = await live<{ id: string }>('POST', `/v1/campaigns/${campaignId}/send`);
  t.is(run.status, 200, JSON.stringify(run.body));
  t.like(await settledRun(live, campaignId, run.body.id), { status: 'completed', pieces_created: 1 });
  const [piece] = await campaignPieces(live, campaignId);
  return rendered(live, 'postcards', piece.id);
}

type Body = (t: ExecutionContext, setup: Setup) => Promise<void>;
const cases: [string, Body][] = [];
const scenario = (title: string, body: Body) => cases.push([title, body]);

scenario(
  'requires_approval: chosen, or by default in live mode only; approve and reject record who and when',
  async (t, s) => {
    const { live, test: testKey, name } = await liveAccount(s.engine);
    const plain = await testKey<Campaign>('POST', '/v1/campaigns', {
      json: { name: 'A', schedule_type: 'immediate', use_type: 'marketing' },
    });
    t.like(plain.body, { requires_approval: false, approval: null });
    const refused = await testKey('POST', `/v1/campaigns/${plain.body.id}/approve`, { json: { by: 'Ann' } });
    t.is(refused.status, 422, 'nothing to approve');
    t.is(refused.body.error.status_code, 422);
    t.is((await testKey('POST', '/v1/campaigns/cmp_0000000000000000/approve')).status, 404);
    t.is((await testKey('POST', `/v1/campaigns/${plain.body.id}/approve`, { key: 'test_nope' })).status, 401);

    await s.engine.setSetting('live_campaigns_require_approval', true, name);
    const inTest = await testKey<Campaign>('POST', '/v1/campaigns', {
      json: { name: 'B', schedule_type: 'immediate', use_type: 'marketing' },
    });
    t.is(inTest.body.requires_approval, false, 'never by default in test mode');
    const inLive = await live<Campaign>('POST', '/v1/campaigns', {
      json: { name: '<b>C</b>', schedule_type: 'immediate', use_type: 'marketing' },
    });
    t.like(inLive.body, {
      requires_approval: true,
      approval: { status: 'pending', decided_by: null, decided_at: null, reason: null },
    });
    const optedOut = await live<Campaign>('POST', '/v1/campaigns', {
      json: { name: 'D', schedule_type: 'immediate', use_type: 'marketing', requires_approval: false },
    });
    t.is(optedOut.body.requires_approval, false, 'a create that says so wins over the setting');

    const chosen = await testKey<Campaign>('POST', '/v1/campaigns', {
      json: { name: 'E', schedule_type: 'immediate', use_type: 'marketing', requires_approval: true },
    });
    const rejected = await testKey<Campaign>('POST', `/v1/campaigns/${chosen.body.id}/reject`, {
      json: { by: 'Ann Reviewer', reason: 'wrong offer' },
    });
    t.is(rejected.status, 200, JSON.stringify(rejected.body));
    t.like(rejected.body.approval, { status: 'rejected', decided_by: 'Ann Reviewer', reason: 'wrong offer' });
    t.true(Date.parse(String(rejected.body.approval?.decided_at)) > 0);
    const send = await testKey('POST', `/v1/campaigns/${chosen.body.id}/send`);
    t.is(send.status, 422, 'a rejected campaign sends nothing');
    t.regex(send.body.error.message, /rejected/);
    const approved = await testKey<Campaign>('POST', `/v1/campaigns/${chosen.body.id}/approve`, { json: {} });
    t.like(approved.body.approval, { status: 'approved', reason: null });
    t.regex(String(approved.body.approval?.decided_by), /^api key/, 'an API caller who gives no name is its key');
    t.like((await testKey('GET', `/v1/campaigns/${chosen.body.id}`)).body, { approval: { status: 'approved' } });
    const tooLong = await testKey('POST', `/v1/campaigns/${chosen.body.id}/approve`, { json: { by: 'x'.repeat(256) } });
    t.is(tooLong.status, 422);

    const events = await testKey<{ data: { reference_id: string; event_type: { id: string } }[] }>(
      'GET',
      '/v1/events?event_type=campaign.approved,campaign.rejected',
    );
    t.deepEqual(
      events.body.data.map((e) => `${e.event_type.id} ${e.reference_id}`),
      [`campaign.approved ${chosen.body.id}`, `campaign.rejected ${chosen.body.id}`],
    );
  },
);

scenario('a live campaign awaiting approval renders but produces nothing until approved', async (t, s) => {
  const { live } = await liveAccount(s.engine);
  const campaign = await liveCampaign(t, live, { requires_approval: true });
  const piece = await sentAndRendered(t, live, campaign.id);
  // a piece made after it, of no campaign, goes through production; the campaign's is held back
  const control = await created(live, 'postcards', postcard());
  await ticketOf(s.outbox, control.id, 120_000);
  t.deepEqual(ticketFiles(s.outbox, piece.id), [], 'not handed to production while pending');
  t.is((await get(live, 'postcards', piece.id)).production, undefined);

  const approved = await live<Campaign>('POST', `/v1/campaigns/${campaign.id}/approve`, { json: { by: 'Bo' } });
  t.is(approved.status, 200, JSON.stringify(approved.body));
  const { ticket } = await ticketOf(s.outbox, piece.id, 120_000);
  t.is(ticket.piece_id, piece.id);
});

scenario('rejecting a live campaign cancels its pieces; they never reach production', async (t, s) => {
  const { live } = await liveAccount(s.engine);
  const campaign = await liveCampaign(t, live, { requires_approval: true });
  const piece = await sentAndRendered(t, live, campaign.id);
  const rejected = await live<Campaign>('POST', `/v1/campaigns/${campaign.id}/reject`, {
    json: { by: 'Cy', reason: 'typo on the front' },
  });
  t.is(rejected.status, 200, JSON.stringify(rejected.body));
  await until('the piece cancelled', async () =>
    (await campaignPieces(live, campaign.id)).length === 0 ? true : undefined,
  );
  const control = await created(live, 'postcards', postcard());
  await ticketOf(s.outbox, control.id, 120_000);
  t.deepEqual(ticketFiles(s.outbox, piece.id), []);
  t.is((await live('POST', `/v1/campaigns/${campaign.id}/send`)).status, 422);
});

scenario('a change of what an approved campaign mails needs a new approval; names and notes do not', async (t, s) => {
  const { live, test: testKey, name } = await liveAccount(s.engine);
  const campaign = await liveCampaign(t, testKey, { requires_approval: true });
  const approve = async () => {
    const reply = await testKey<Campaign>('POST', `/v1/campaigns/${campaign.id}/approve`, { json: { by: 'Ann' } });
    t.is(reply.body.approval?.status, 'approved', JSON.stringify(reply.body));
  };
  const approvalNow = async () => (await testKey<Campaign>('GET', `/v1/campaigns/${campaign.id}`)).body.approval;
  await approve();
  const renamed = await testKey('PATCH', `/v1/campaigns/${campaign.id}`, {
    json: { name: 'Renamed', description: 'a note', metadata: { team: 'growth' } },
  });
  t.is(renamed.status, 200, JSON.stringify(renamed.body));
  t.like(
    await approvalNow(),
    { status: 'approved', decided_by: 'Ann' },
    'a name, description or metadata is not mailed',
  );

  t.is(
    (
      await testKey('PATCH', `/v1/campaigns/${campaign.id}`, {
        json: { send_date: new Date(Date.now() + 10 * 86_400_000).toISOString() },
      })
    ).status,
    200,
  );
  const afterDate = await approvalNow();
  t.like(afterDate, { status: 'pending', decided_by: null, decided_at: null });
  t.regex(afterDate?.reason ?? '', /its send_date changed/);

  await approve();
  const creative = await testKey<{ id: string }>('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: campaign.id, from: FROM, front: FRONT, back: BACK, details: {} },
  });
  t.is(creative.status, 200, JSON.stringify(creative.body));
  const afterCreative = await approvalNow();
  t.is(afterCreative?.status, 'pending', 'a creative added');
  t.regex(afterCreative?.reason ?? '', /its creatives changed/);

  await approve();
  t.is((await testKey('DELETE', `/v1/creatives/${creative.body.id}`)).status, 200);
  t.is((await approvalNow())?.status, 'pending', 'a creative removed');

  await approve();
  const upload = await testKey<{ id: string }>('POST', '/v1/uploads', { json: { campaignId: campaign.id } });
  t.is(upload.status, 200, JSON.stringify(upload.body));
  t.regex((await approvalNow())?.reason ?? '', /its audience changed/);

  await approve();
  const mapped = await testKey('PATCH', `/v1/uploads/${upload.body.id}`, {
    json: { requiredAddressColumnMapping: { name: 'name' } },
  });
  t.is(mapped.status, 200, JSON.stringify(mapped.body));
  t.regex((await approvalNow())?.reason ?? '', /mapping changed/);

  // a rejected campaign changed is open for a new decision too
  t.is((await testKey('POST', `/v1/campaigns/${campaign.id}/reject`, { json: { by: 'Bo' } })).status, 200);
  t.is((await testKey('PATCH', `/v1/campaigns/${campaign.id}`, { json: { remail_after_days: 30 } })).status, 200);
  t.is((await approvalNow())?.status, 'pending');

  // approval can be dropped in test mode (and a decision made before does not carry over when it is
  // required again); not in live mode while the account requires it
  await approve();
  t.is((await testKey('PATCH', `/v1/campaigns/${campaign.id}`, { json: { requires_approval: false } })).status, 200);
  t.is(await approvalNow(), null);
  t.is((await testKey('PATCH', `/v1/campaigns/${campaign.id}`, { json: { requires_approval: true } })).status, 200);
  t.like(await approvalNow(), { status: 'pending', decided_by: null });
  await s.engine.setSetting('live_campaigns_require_approval', true, name);
  const inLive = await live<Campaign>('POST', '/v1/campaigns', {
    json: { name: 'Live', schedule_type: 'immediate', use_type: 'marketing' },
  });
  const dropped = await live('PATCH', `/v1/campaigns/${inLive.body.id}`, { json: { requires_approval: false } });
  t.is(dropped.status, 422);
  t.regex(dropped.body.error.message, /live_campaigns_require_approval/);
  t.is((await live<Campaign>('GET', `/v1/campaigns/${inLive.body.id}`)).body.requires_approval, true);
});

for (const db of DATABASES)
  for (const [title, body] of cases)
    test.serial(`${db}: ${title}`, async (t) => {
      t.timeout(300_000);
      await body(t, await engines.setupFor(db));
    });
