// Two engine processes on one PostgreSQL database both run the campaign scheduler: every cron tick
// still makes exactly one run (the run's id is derived from its campaign and tick).
import test from 'ava';
import { startEngine } from '../../helpers/engine';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { FROM, TO } from '../../helpers/mail';

const pg = DATABASES.includes('postgres') ? test.serial : test.serial.skip;

pg('postgres: two processes, one scheduler each: one run a tick', async (t) => {
  t.timeout(120_000);
  const first = await startEngine({ db: 'postgres' });
  const second = await startEngine({ db: 'postgres', shareWith: first });
  try {
    const api = client(first.url, first.keys.test);
    const address = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
    const front = '<html><body>Hi</body></html>';
    const cmp = (
      await api('POST', '/v1/campaigns', {
        json: {
          name: 'Shared',
          schedule_type: 'immediate',
          use_type: 'marketing',
          schedule: { cron: '* * * * * *' },
          audience: { address_ids: [address] },
        },
      })
    ).body.id as string;
    const creative = await api('POST', '/v1/creatives', {
      json: { resource_type: 'postcard', campaign_id: cmp, from: FROM, front, back: front, details: {} },
    });
    t.is(creative.status, 200, JSON.stringify(creative.body));
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    await api('PATCH', `/v1/campaigns/${cmp}`, { json: { status: 'paused' } });
    const runs = (await api('GET', `/v1/campaigns/${cmp}/runs?limit=100`)).body.data as { scheduled_for: string }[];
    t.true(runs.length >= 2, `${runs.length} runs`);
    t.is(new Set(runs.map((r) => r.scheduled_for)).size, runs.length, 'no tick made two runs');
    const pieces = (await api('GET', `/v1/postcards?campaign_id=${cmp}&limit=100`)).body.data as unknown[];
    // a run may still be settling: never more pieces than runs
    t.true(pieces.length <= runs.length);
  } finally {
    await second.close();
    await first.close();
  }
});
