// A campaign run of 10,000 recipients: postcards from a template, to an audience of an uploaded CSV
// and to one of the address book. Measured: pieces created per second from the send to the run's
// completion (which includes the wait for a worker to take the run's job, and for each next job it
// hands on to), with every piece's render job queued behind it (the engine renders nothing), then a
// smaller run with rendering included (two render workers; until the last piece's PDF), and the
// engine's peak RSS over each.
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
// with rendering included the engine's two cores render ~15-30 postcards/s: a smaller run by default
const RENDERED_RECIPIENTS = Number(process.env.RENDERED_RECIPIENTS ?? 1_000);

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

/** How many of the campaign's postcards are rendered. */
async function renderedCount(api: Api, campaignId: string): Promise<number> {
  const page = await api(
    'GET',
    `/v1/postcards?campaign_id=${campaignId}&status=rendered&limit=1&include[]=total_count`,
  );
  return Number(page.body.total_count);
}

/**
 * Sends the campaign and waits for its run (and, `rendered`, for every piece's PDF), sampling the
 * engine's RSS; pieces/s and the peak.
 */
async function timedRun(api: Api, pid: number, campaignId: string, rendered = false) {
  let peak = rssMb(pid);
  const started = performance.now();
  const run = (await api('POST', `/v1/campaigns/${campaignId}/send`)).body.id as string;
  let body: Record<string, unknown> = { status: 'running' };
  while (body.status === 'running') {
    await new Promise((r) => setTimeout(r, 100));
    peak = Math.max(peak, rssMb(pid));
    body = (await api('GET', `/v1/campaigns/${campaignId}/runs/${run}`)).body;
  }
  if (body.status !== 'completed') throw new Error(`run ${run}: ${JSON.stringify(body)}`);
  while (rendered && (await renderedCount(api, campaignId)) < Number(body.pieces_created)) {
    await new Promise((r) => setTimeout(r, 250));
    peak = Math.max(peak, rssMb(pid));
  }
  const seconds = (performance.now() - started) / 1000;
  const queued = (await api('GET', '/health')).body.jobs as Record<string, unknown> | null;
  return { pieces: Number(body.pieces_created), seconds, peak, queued };
}

async function benchOne(db: Db, databaseUrl: string, audience: 'upload' | 'addresses', rendered = false) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-run-'));
  const env = { DATABASE_URL: databaseUrl, ASSET_STORE: dir, ...(rendered ? { WORKERS: '2' } : {}) };
  const child = await startChild('engine-server.ts', env);
  const recipients = rendered ? RENDERED_RECIPIENTS : RECIPIENTS;
  const pid = child.process.pid!;
  const key = child.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const api = client(child.url, key);
  try {
    let campaignId: string;
    if (audience === 'upload') {
      campaignId = await campaignWithTemplate(api, {});
      const upload = await api('POST', '/v1/uploads', { json: { campaignId, ...MAPPING } });
      const rows = Array.from({ length: recipients }, (_, i) => csvRow(i));
      await sendFile(child.url, key, upload.body.id, `${CSV_HEADER}\n${rows.join('\n')}\n`);
    } else {
      const list = randomBytes(4).toString('hex');
      for (let i = 0; i < recipients; i += 100)
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            api('POST', '/v1/addresses', {
              json: { ...FROM, name: `Recipient ${i + j}`, address_line2: `Apt ${i + j}`, metadata: { list } },
            }),
          ),
        );
      campaignId = await campaignWithTemplate(api, { audience: { metadata: { list } } });
    }
    const r = await timedRun(api, pid, campaignId, rendered);
    const label = `${db === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${audience}${rendered ? ', rendered' : ''}`;
    process.stdout.write(
      `${label.padEnd(30)} ${String(r.pieces).padStart(7)} pieces ${r.seconds.toFixed(1).padStart(6)} s ${String(Math.round(r.pieces / r.seconds)).padStart(6)} pieces/s   peak RSS ${String(r.peak).padStart(4)} MB   jobs after ${JSON.stringify(r.queued)}\n`,
    );
  } finally {
    child.process.kill('SIGINT');
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCampaignRun(pg: boolean): Promise<void> {
  const dbs = pg ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
  // rendering excluded (queued behind the run), then included (the run's pieces until their last PDF)
  for (const [audience, rendered] of [
    ['upload', false],
    ['addresses', false],
    ['upload', true],
  ] as const)
    for (const db of dbs) {
      const database = await freshDatabase(db);
      try {
        await benchOne(db, database.url, audience, rendered);
      } finally {
        await database.drop();
      }
    }
}

if (require.main === module) void benchCampaignRun(!process.argv.includes('--no-pg'));
