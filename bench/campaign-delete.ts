// DELETE /v1/campaigns/{id} of a campaign with 10,000 pieces (issue 45): a run makes the pieces (an
// uploaded CSV's rows, the engine rendering nothing), then the DELETE is timed, and the campaign's live
// pieces and `postcard.deleted` events are counted right after its answer.
// Run: node --import tsx bench/campaign-delete.ts [--no-pg]   (PIECES, default 10,000)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startChild } from './lib';
import { client } from '../test/helpers/http';
import { FROM } from '../test/helpers/mail';
import { CSV_HEADER, MAPPING, csvRow, sendFile } from '../test/helpers/audience';
import { freshDatabase, type Db } from '../test/helpers/engine';

const PIECES = Number(process.env.PIECES ?? 10_000);

type Api = ReturnType<typeof client>;

async function total(api: Api, query: string): Promise<number> {
  return Number((await api('GET', `${query}&limit=1&include[]=total_count`)).body.total_count);
}

async function benchOne(db: Db, databaseUrl: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-delete-'));
  const child = await startChild('engine-server.ts', { DATABASE_URL: databaseUrl, ASSET_STORE: dir });
  const key = child.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const api = client(child.url, key);
  try {
    const campaign = await api('POST', '/v1/campaigns', {
      json: { name: 'Bench', schedule_type: 'immediate', use_type: 'marketing' },
    });
    const id = campaign.body.id as string;
    const creative = await api('POST', '/v1/creatives', {
      json: { resource_type: 'postcard', campaign_id: id, from: FROM, front: '<p>Hi</p>', back: '<p>Bye</p>' },
    });
    if (creative.status !== 200) throw new Error(`creative: ${JSON.stringify(creative.body)}`);
    const upload = await api('POST', '/v1/uploads', { json: { campaignId: id, ...MAPPING } });
    const rows = Array.from({ length: PIECES }, (_, i) => csvRow(i));
    await sendFile(child.url, key, upload.body.id, `${CSV_HEADER}\n${rows.join('\n')}\n`);
    const sent = performance.now();
    const run = (await api('POST', `/v1/campaigns/${id}/send`)).body.id as string;
    for (let status = 'running'; status === 'running';) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await api('GET', `/v1/campaigns/${id}/runs/${run}`)).body.status as string;
    }
    const ran = (performance.now() - sent) / 1000;
    const pieces = await total(api, `/v1/postcards?campaign_id=${id}`);
    const started = performance.now();
    const deleted = await api('DELETE', `/v1/campaigns/${id}`);
    const seconds = (performance.now() - started) / 1000;
    if (deleted.status !== 200) throw new Error(`delete: ${JSON.stringify(deleted.body)}`);
    const live = await total(api, `/v1/postcards?campaign_id=${id}`);
    const events = await total(api, '/v1/events?event_type=postcard.deleted');
    process.stdout.write(
      `${(db === 'sqlite' ? 'SQLite' : 'PostgreSQL').padEnd(11)} ${pieces} pieces (run ${ran.toFixed(1)} s): DELETE ${seconds.toFixed(2)} s, ` +
        `answer ${JSON.stringify(deleted.body)}, live after ${live}, postcard.deleted events ${events}\n`,
    );
  } finally {
    child.process.kill('SIGINT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCampaignDelete(pg: boolean): Promise<void> {
  for (const db of (process.env.BENCH_DBS?.split(',') as Db[] | undefined) ??
    (pg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const))) {
    const database = await freshDatabase(db);
    try {
      await benchOne(db, database.url);
    } finally {
      await database.drop();
    }
  }
}

if (require.main === module) void benchCampaignDelete(!process.argv.includes('--no-pg'));
