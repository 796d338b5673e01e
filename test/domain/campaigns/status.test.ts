// A campaign says how its last run ended (both databases): `failed` when its only run failed, and
// `completed` again once a later run completes.
import { databaseSuite } from '../../helpers/suite';
import { TO } from '../../helpers/mail';
import { newCampaign, postcardCreative, settledRun } from '../../helpers/campaign';

const { test } = databaseSuite();

test('a campaign whose only run failed is failed; a later run that completes makes it completed', async (t, {
  api,
}) => {
  const address = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
  const cmp = await newCampaign(t, api, { audience: { address_ids: [address] } });
  // no creative yet: the run fails
  const first = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(await settledRun(api, cmp.id, first.body.id), { status: 'failed' });
  t.like((await api('GET', `/v1/campaigns/${cmp.id}`)).body, { status: 'failed', is_draft: false });
  const listed = await api('GET', '/v1/campaigns?limit=100');
  t.like(
    (listed.body.data as { id: string }[]).find((c) => c.id === cmp.id),
    { status: 'failed' },
    'listed as failed too',
  );

  await postcardCreative(t, api, cmp.id);
  const second = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(second.status, 200, JSON.stringify(second.body));
  t.like(await settledRun(api, cmp.id, second.body.id), { status: 'completed', pieces_created: 1 });
  t.like((await api('GET', `/v1/campaigns/${cmp.id}`)).body, { status: 'completed' });
});
