// A cron tick that passes while no engine process runs the scheduler fires once when one starts, on
// SQLite and PostgreSQL: the campaign is made by a `serve --no-workers`, its daily tick passes, then a
// `serve` with workers starts and makes exactly one run for it. The two databases' tests run at once:
// each is mostly waiting for its tick.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { serve, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase } from '../../helpers/engine';
import { FROM, TO } from '../../helpers/mail';

function kill(served: Served): Promise<void> {
  served.child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
  served.child.kill('SIGTERM');
  return exited;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const db of DATABASES) {
  test(`${db}: a tick missed while no scheduler ran fires once on start`, async (t) => {
    t.timeout(120_000);
    const database = await freshDatabase(db);
    const env = {
      DATABASE_URL: database.url,
      ASSET_STORE: fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-assets-')),
      LOG_LEVEL: 'silent',
    };
    let served = await serve(env, ['--no-workers']);
    try {
      const key = served.keys['test secret'];
      let api = client(served.url, key);
      const address = (await api('POST', '/v1/addresses', { json: TO })).body.id as string;
      // a daily tick three seconds from now
      const tick = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_000);
      const cron = `${tick.getUTCSeconds()} ${tick.getUTCMinutes()} ${tick.getUTCHours()} * * *`;
      const created = await api('POST', '/v1/campaigns', {
        json: {
          name: 'Missed',
          schedule_type: 'immediate',
          use_type: 'marketing',
          schedule: { cron },
          audience: { address_ids: [address] },
        },
      });
      t.is(created.status, 200, JSON.stringify(created.body));
      const cmp = created.body.id as string;
      const front = '<html><body>Hi</body></html>';
      await api('POST', '/v1/creatives', {
        json: { resource_type: 'postcard', campaign_id: cmp, from: FROM, front, back: front, details: {} },
      });
      await sleep(tick.getTime() - Date.now() + 1_500);
      t.is((await api('GET', `/v1/campaigns/${cmp}/runs`)).body.data.length, 0, 'no scheduler, no run');
      await kill(served);

      served = await serve(env);
      api = client(served.url, served.keys['test secret'] ?? key);
      let runs: { scheduled_for: string; status: string }[] = [];
      for (let i = 0; i < 100 && runs[0]?.status !== 'completed'; i++) {
        await sleep(200);
        runs = (await api('GET', `/v1/campaigns/${cmp}/runs`)).body.data;
      }
      await sleep(3_000);
      runs = (await api('GET', `/v1/campaigns/${cmp}/runs`)).body.data;
      t.is(runs.length, 1, JSON.stringify(runs));
      t.like(runs[0], { status: 'completed', scheduled_for: tick.toISOString(), trigger: 'schedule' });
    } finally {
      await kill(served);
      await database.drop();
    }
  });
}
