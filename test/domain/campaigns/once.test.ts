// A campaign never mails a person twice (both databases): a sent one-shot campaign is not sent again,
// sends arriving at once make one run, a run mails a person once however many book entries name them,
// a recurring campaign's next run mails only people it has not mailed, a whole-book audience leaves
// the account's return addresses out, and a deleted campaign's pieces not yet in production are cancelled.
import avaTest from 'ava';
import { databaseSuite } from '../../helpers/suite';
import { startEngine } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';
import { connect } from '../../../engine/store/connection';
import { client } from '../../helpers/http';
import { FROM, TO } from '../../helpers/mail';
import { campaignPieces, newCampaign, postcardCreative, settledRun } from '../../helpers/campaign';

const { test, serial } = databaseSuite();

/** A far-away yearly schedule: a recurring campaign whose ticks never come during the test. */
const YEARLY = { cron: '0 0 1 1 *', time_zone: 'UTC' };

test('two sends at once of a one-shot campaign make one run and one piece a recipient', async (t, { api }) => {
  const segment = `race-${Date.now()}`;
  for (let i = 0; i < 3; i++)
    await api('POST', '/v1/addresses', { json: { ...TO, name: `Racer ${i}`, metadata: { segment } } });
  const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
  await postcardCreative(t, api, cmp.id);
  const sends = await Promise.all(Array.from({ length: 4 }, () => api('POST', `/v1/campaigns/${cmp.id}/send`)));
  const started = sends.filter((s) => s.status === 200);
  t.is(started.length, 1, JSON.stringify(sends.map((s) => [s.status, s.body])));
  for (const refused of sends.filter((s) => s.status !== 200)) {
    t.is(refused.status, 422);
    t.is(refused.body.error.code, 'conflict');
  }
  t.like(await settledRun(api, cmp.id, started[0].body.id), { status: 'completed', pieces_created: 3 });
  t.is((await campaignPieces(api, cmp.id)).length, 3);
  const again = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(again.status, 422);
  t.regex(again.body.error.message, /sent already/);
  t.is((await campaignPieces(api, cmp.id)).length, 3, 'no second piece');
});

test('a run mails a person once: repeated book entries are reported as duplicates', async (t, { api }) => {
  const segment = `dup-${Date.now()}`;
  const same = { ...TO, name: 'Jane Doe', metadata: { segment } };
  const ids: string[] = [];
  for (const entry of [
    same,
    same,
    same,
    // the same person written another way: standardized, it is the same address
    { ...same, name: 'jane  doe.', address_line1: '210 King Street' },
    { ...same, name: 'John Doe' },
  ])
    ids.push((await api('POST', '/v1/addresses', { json: entry })).body.id as string);
  t.true(ids.every((id) => id?.startsWith('adr_')));
  const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
  await postcardCreative(t, api, cmp.id);
  const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  const done = await settledRun(api, cmp.id, run.body.id);
  t.like(done, { status: 'completed', recipients: 5, pieces_created: 2, skipped_count: 3 });
  const skipped = done.skipped as { address_id: string; code: string; reason: string }[];
  const mailed = (await campaignPieces(api, cmp.id)).map((p) => p.to.id);
  // one of the four entries naming Jane Doe is mailed (the first in the audience's order), and John Doe
  const jane = mailed.filter((id) => ids.slice(0, 4).includes(id));
  t.is(jane.length, 1);
  t.true(mailed.includes(ids[4]));
  t.deepEqual(
    skipped.map((s) => s.address_id).sort(),
    ids
      .slice(0, 4)
      .filter((id) => id !== jane[0])
      .sort(),
  );
  t.true(
    skipped.every((s) => s.code === 'duplicate' && s.reason.includes(jane[0])),
    JSON.stringify(skipped),
  );
});

serial('a recurring campaign mails only people it has not mailed; one run at a time', async (t, { api }) => {
  const segment = `weekly-${Date.now()}`;
  const add = async (name: string) =>
    (await api('POST', '/v1/addresses', { json: { ...TO, name, metadata: { segment } } })).body.id as string;
  const first = [await add('Ann'), await add('Bob')];
  const cmp = await newCampaign(t, api, { schedule: YEARLY, audience: { metadata: { segment } } });
  t.truthy(cmp.next_run_at, 'a cron campaign shows when it next runs');
  t.is(cmp.next_run_at, `${new Date().getUTCFullYear() + 1}-01-01T00:00:00.000Z`);
  await postcardCreative(t, api, cmp.id);
  // sends at once while one is running: one run
  const sends = await Promise.all([1, 2, 3].map(() => api('POST', `/v1/campaigns/${cmp.id}/send`)));
  const started = sends.filter((s) => s.status === 200);
  t.is(started.length, 1, JSON.stringify(sends.map((s) => s.body)));
  t.like(await settledRun(api, cmp.id, started[0].body.id), { pieces_created: 2 });

  const later = await add('Cy');
  const next = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(next.status, 200, JSON.stringify(next.body));
  const done = await settledRun(api, cmp.id, next.body.id);
  t.like(done, { status: 'completed', recipients: 3, pieces_created: 1, skipped_count: 2 });
  const skipped = done.skipped as { address_id: string; code: string; reason: string }[];
  t.deepEqual(skipped.map((s) => s.address_id).sort(), [...first].sort());
  t.true(skipped.every((s) => s.code === 'already_mailed' && /already mailed by this campaign/.test(s.reason)));
  const pieces = await campaignPieces(api, cmp.id);
  t.is(pieces.length, 3);
  t.is(pieces.filter((p) => p.to.id === later).length, 1);
});

test('a whole-book audience leaves out the return addresses the account mails from', async (t, { engine }) => {
  // an account of its own: its whole address book is the audience
  const keys = await engine.createAccount();
  const api = client(engine.url, keys.test);
  const recipient = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
  const sender = (await api('POST', '/v1/addresses', { json: { ...FROM, name: 'Our Office' } })).body.id as string;
  // an inline sender is saved to the book; so is an inline recipient, who is a person to mail
  const piece = await api('POST', '/v1/postcards', {
    json: {
      to: { ...TO, name: 'Inline Recipient' },
      from: { ...FROM, name: 'Inline Sender' },
      front: '<html>f</html>',
      back: '<html>b</html>',
      use_type: 'marketing',
    },
  });
  t.is(piece.status, 200, JSON.stringify(piece.body));
  const byId = await api('POST', '/v1/postcards', {
    json: { to: recipient, from: sender, front: '<html>f</html>', back: '<html>b</html>', use_type: 'marketing' },
  });
  t.is(byId.status, 200, JSON.stringify(byId.body));
  t.is((await api('GET', `/v1/addresses/${piece.body.from.id}`)).status, 200, 'the sender stays in the book');
  const cmp = await newCampaign(t, api, { audience: null });
  await postcardCreative(t, api, cmp.id);
  const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  const done = await settledRun(api, cmp.id, run.body.id);
  const mailed = (await campaignPieces(api, cmp.id)).map((p) => p.to.id).sort();
  t.deepEqual(mailed, [recipient, piece.body.to.id].sort(), JSON.stringify(done));
});

test('deleting a campaign cancels its pieces not yet in production; its window holds them', async (t, { api }) => {
  const segment = `del-${Date.now()}`;
  for (const name of ['Dee', 'Eve'])
    await api('POST', '/v1/addresses', { json: { ...TO, name, metadata: { segment } } });
  const cmp = await newCampaign(t, api, {
    audience: { metadata: { segment } },
    cancel_window_campaign_minutes: 90,
    print_speed: 'core',
  });
  t.is(cmp.print_speed, 'core');
  await postcardCreative(t, api, cmp.id);
  const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  await settledRun(api, cmp.id, run.body.id);
  const pieces = await campaignPieces(api, cmp.id);
  t.is(pieces.length, 2);
  for (const p of pieces) {
    const held = Date.parse(p.send_date) - Date.parse(p.date_created);
    t.true(
      Math.abs(held - 90 * 60_000) < 5_000,
      `send_date ${p.send_date} is the campaign's window after ${p.date_created}`,
    );
  }
  const deleted = await api('DELETE', `/v1/campaigns/${cmp.id}`);
  t.deepEqual(deleted.body, { id: cmp.id, deleted: true, pieces_cancelled: 2, pieces_in_production: 0 });
  for (const p of pieces) t.is((await api('GET', `/v1/postcards/${p.id}`)).status, 404, `${p.id} is cancelled`);
  const events = await api('GET', '/v1/events?event_type=postcard.deleted&limit=100');
  const cancelled = new Set((events.body.data as { body: { id: string } }[]).map((e) => e.body.id));
  t.true(pieces.every((p) => cancelled.has(p.id)));
});

test('a creative is updated with PATCH: sender, description and metadata', async (t, { api }) => {
  const cmp = await newCampaign(t, api);
  const creative = await postcardCreative(t, api, cmp.id);
  const patched = await api('PATCH', `/v1/creatives/${creative.id}`, {
    json: { description: 'Spring', metadata: { wave: '2' }, from: { ...FROM, name: 'New Sender' } },
  });
  t.is(patched.status, 200, JSON.stringify(patched.body));
  t.like(patched.body, { id: creative.id, description: 'Spring', metadata: { wave: '2' } });
  t.not(patched.body.from, creative.from);
  t.is((await api('GET', `/v1/addresses/${patched.body.from}`)).body.name, 'NEW SENDER');
  const bad = await api('PATCH', `/v1/creatives/${creative.id}`, { json: { from: 'adr_0000000000000000' } });
  t.is(bad.status, 404);
  t.is(
    (await api('GET', `/v1/creatives/${creative.id}`)).body.from,
    patched.body.from,
    'a refused update changes nothing',
  );
  t.is((await api('PATCH', '/v1/creatives/crv_0000000000000000', { json: { description: 'x' } })).status, 404);
});

for (const db of DATABASES)
  avaTest.serial(`${db}: sends at once to two engine processes on one database make one run`, async (t) => {
    const first = await startEngine({ db });
    const second = await startEngine({ db, shareWith: first });
    try {
      const one = client(first.url, first.keys.test);
      const two = client(second.url, second.keys.test);
      const segment = `two-${Date.now()}`;
      for (const name of ['Fay', 'Gus'])
        await one('POST', '/v1/addresses', { json: { ...TO, name, metadata: { segment } } });
      const cmp = await newCampaign(t, one, { audience: { metadata: { segment } } });
      await postcardCreative(t, one, cmp.id);
      const sends = await Promise.all([one, two, one, two].map((api) => api('POST', `/v1/campaigns/${cmp.id}/send`)));
      const started = sends.filter((s) => s.status === 200);
      t.is(started.length, 1, JSON.stringify(sends.map((s) => s.body)));
      await settledRun(one, cmp.id, started[0].body.id);
      t.is((await campaignPieces(two, cmp.id)).length, 2);
    } finally {
      await second.close();
      await first.close();
    }
  });

test('a campaign marked recurring without a schedule is sent again, to new people only', async (t, { api }) => {
  const segment = `wf-${Date.now()}`;
  await api('POST', '/v1/addresses', { json: { ...TO, name: 'Hal', metadata: { segment } } });
  const cmp = await newCampaign(t, api, { recurring: true, audience: { metadata: { segment } } });
  t.like(cmp, { recurring: true, next_run_at: null });
  await postcardCreative(t, api, cmp.id);
  const first = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settledRun(api, cmp.id, first.body.id), { pieces_created: 1 });
  const second = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(second.status, 200, JSON.stringify(second.body));
  t.like(await settledRun(api, cmp.id, second.body.id), { pieces_created: 0, skipped_count: 1 });
  t.is((await campaignPieces(api, cmp.id)).length, 1);
});

test('remail_after_days mails a person again once that many days have passed', async (t, { api, engine }) => {
  const segment = `remail-${Date.now()}`;
  await api('POST', '/v1/addresses', { json: { ...TO, name: 'Ida', metadata: { segment } } });
  const cmp = await newCampaign(t, api, {
    schedule: YEARLY,
    remail_after_days: 30,
    audience: { metadata: { segment } },
  });
  t.is(cmp.remail_after_days, 30);
  await postcardCreative(t, api, cmp.id);
  const first = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settledRun(api, cmp.id, first.body.id), { pieces_created: 1 });
  const soon = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settledRun(api, cmp.id, soon.body.id), { pieces_created: 0, skipped: [{ code: 'already_mailed' }] });
  // the first mailing is 31 days old now
  const { knex } = connect(engine.databaseUrl);
  try {
    const aged = new Date(Date.now() - 31 * 86_400_000).toISOString();
    t.is(await knex('campaign_mailings').where({ campaign_id: cmp.id }).update({ date_created: aged }), 1);
  } finally {
    await knex.destroy();
  }
  const later = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settledRun(api, cmp.id, later.body.id), { pieces_created: 1, skipped_count: 0 });
  t.is((await campaignPieces(api, cmp.id)).length, 2);
});

serial('a campaign deleted while its run goes on leaves no piece that could still be mailed', async (t, { engine }) => {
  // an account of its own: its address creates count against its own rate limit (150 in 5 s)
  const api = client(engine.url, (await engine.createAccount()).test);
  const segment = `gone-${Date.now()}`;
  for (let i = 0; i < 140; i++) {
    const created = await api('POST', '/v1/addresses', { json: { ...TO, name: `Gone ${i}`, metadata: { segment } } });
    if (created.status !== 200) t.fail(JSON.stringify(created.body));
  }
  const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
  // two creatives: 280 pieces to make
  await postcardCreative(t, api, cmp.id);
  await postcardCreative(t, api, cmp.id);
  t.is((await api('POST', `/v1/campaigns/${cmp.id}/send`)).status, 200);
  t.is((await api('DELETE', `/v1/campaigns/${cmp.id}`)).status, 200);
  // the run sees its campaign gone within a quarter second and cancels what it made meanwhile
  let live = -1;
  for (let i = 0; i < 50 && live !== 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    live = (await campaignPieces(api, cmp.id)).length;
  }
  t.is(live, 0);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  t.is((await campaignPieces(api, cmp.id)).length, 0, 'and none is made after');
});
