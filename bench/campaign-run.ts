// A campaign run of 10,000 recipients: postcards from a template, to an audience of an uploaded CSV
// and to one of the address book. Measured: pieces created per second from the send to the run's
// completion (which includes the wait for a worker to take the run's job, and for each next job it
// hands on to), with every piece's render job queued behind it (the engine renders nothing here: bench/render.ts measures rendering),
// and the engine's peak RSS over the run.
// Run: node --import tsx bench/campaign-run.ts [--no-pg]   (also part of `npm run bench`)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { rssMb, startChild } from './lib';
import { client } from '../test/helpers/http';
import { FROM } from '../test/helpers/mail';
import { CSV_HEADER, MAPPING, csvRow, sendFile } from '../test/helpers/audience';
import { freshDatabase, type Db } from '../test/helpers/engine';

const RECIPIENTS = Number(process.env.RUN_RECIPIENTS ?? 10_000);

type Api = ReturnType<typeof client>;

async function campaignWithTemplate(api: Api, extra: Record<string, unknown>): Promise<string> {
  const template = await api('POST', '/v1/templates', {
    json: { description: 'bench', html: '<html><body><h1>Hello {{name}}</h1><p>Code {{code}}</p></body></html>' },
  });
  const campaign = await api('POST', '/v1/campaigns', {
    json: { name: 'Bench', schedule_type: 'immediate', use_type: 'marketing', ...extra },
  });
  const creative = await api('POST', '/v1/creatives', {
    json: {
      resource_type: 'postcard',
      campaign_id: campaign.body.id,
      from: FROM,
      front: template.body.id,
      back: template.body.id,
      details: { merge_variables: { name: 'friend', code: '-' } },
    },
  });
  if (creative.status !== 200) throw new Error(`creative: ${JSON.stringify(creative.body)}`);
  return campaign.body.id as string;
}

/** Sends the campaign and waits for its run, sampling the engine's RSS; pieces/s and the peak. */
async function timedRun(api: Api, pid: number, campaignId: string) {
  let peak = rssMb(pid);
  const started = performance.now();
  const run = (await api('POST', `/v1/campaigns/${campaignId}/send`)).body.id as string;
  let body: Record<string, unknown> = { status: 'running' };
  while (body.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    peak = Math.max(peak, rssMb(pid));
    body = (await api('GET', `/v1/campaigns/${campaignId}/runs/${run}`)).body;
  }
  const seconds = (performance.now() - started) / 1000;
  if (body.status !== 'completed') throw new Error(`run ${run}: ${JSON.stringify(body)}`);
  const queued = (await api('GET', '/health')).body.jobs as Record<string, unknown> | null;
  return { pieces: Number(body.pieces_created), seconds, peak, queued };
}

async function benchOne(db: Db, databaseUrl: string, audience: 'upload' | 'addresses'): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-run-'));
  const child = await startChild('engine-server.ts', { DATABASE_URL: databaseUrl, ASSET_STORE: dir });
  const pid = child.process.pid!;
  const key = child.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const api = client(child.url, key);
  try {
    let campaignId: string;
    if (audience === 'upload') {
      campaignId = await campaignWithTemplate(api, {});
      const upload = await api('POST', '/v1/uploads', { json: { campaignId, ...MAPPING } });
      const rows = Array.from({ length: RECIPIENTS }, (_, i) => csvRow(i));
      await sendFile(child.url, key, upload.body.id, `${CSV_HEADER}\n${rows.join('\n')}\n`);
    } else {
      const list = randomBytes(4).toString('hex');
      for (let i = 0; i < RECIPIENTS; i += 100)
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            api('POST', '/v1/addresses', {
              json: { ...FROM, name: `Recipient ${i + j}`, address_line2: `Apt ${i + j}`, metadata: { list } },
            }),
          ),
        );
      campaignId = await campaignWithTemplate(api, { audience: { metadata: { list } } });
    }
    const r = await timedRun(api, pid, campaignId);
    process.stdout.write(
      `${`${db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${audience}`.padEnd(24)} ${String(r.pieces).padStart(7)} pieces ${r.seconds.toFixed(1).padStart(6)} s ${String(Math.round(r.pieces / r.seconds)).padStart(6)} pieces/s   peak RSS ${String(r.peak).padStart(4)} MB   jobs after ${JSON.stringify(r.queued)}\n`,
    );
  } finally {
    child.process.kill('SIGINT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCampaignRun(pg: boolean): Promise<void> {
  for (const audience of ['upload', 'addresses'] as const)
    for (const db of pg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)) {
      const database = await freshDatabase(db);
      try {
        await benchOne(db, database.url, audience);
      } finally {
        await database.drop();
      }
    }
}

if (require.main === module) void benchCampaignRun(!process.argv.includes('--no-pg'));
