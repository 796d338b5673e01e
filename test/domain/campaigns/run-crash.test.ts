// A campaign run survives its engine: `printpost serve` killed with SIGKILL in the middle of a run
// resumes it once restarted and its job's lease has run out, and every recipient ends with exactly
// one piece, on SQLite and PostgreSQL, for an audience of addresses and for one of an uploaded CSV
// (its rows keyed by row number). The four run at once: each waits out its killed job's lease.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { serve, unlimitedAsync, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase } from '../../helpers/engine';
import { FROM, TO } from '../../helpers/mail';
import { CSV_HEADER, MAPPING, csvRow, sendFile } from '../../helpers/audience';

type Api = ReturnType<typeof client>;

/** Who a run sends to: made ready for the campaign; a piece's recipient, one key per recipient. */
interface Audience {
  recipients: number;
  campaign: Record<string, unknown>;
  prepare(t: ExecutionContext, api: Api, served: Served, campaignId: string): Promise<void>;
  recipientOf(piece: { to: { id: string; name: string } }): string;
}

const AUDIENCES: Record<string, Audience> = {
  addresses: {
    // a run makes a few pieces at once: enough recipients that the kill finds it under way
    recipients: 1_000,
    campaign: { audience: { metadata: { list: 'crash' } } },
    prepare: async (_t, api) => {
      for (let i = 0; i < 1_000; i += 50)
        await Promise.all(
          Array.from({ length: 50 }, (_, j) =>
            api('POST', '/v1/addresses', { json: { ...TO, name: `Recipient ${i + j}`, metadata: { list: 'crash' } } }),
          ),
        );
    },
    recipientOf: (piece) => piece.to.id,
  },
  upload: {
    recipients: 1_000,
    campaign: {},
    prepare: async (t, api, served, campaignId) => {
      const upload = await api('POST', '/v1/uploads', { json: { campaignId, ...MAPPING } });
      const rows = Array.from({ length: 1_000 }, (_, i) => csvRow(i));
      const sent = await sendFile(
        served.url,
        served.keys['test secret'],
        upload.body.id,
        `${CSV_HEADER}\n${rows.join('\n')}`,
      );
      t.is(sent.status, 200, JSON.stringify(sent.body));
    },
    // a row's piece has an inline address of its own: the row is known by its recipient's name
    recipientOf: (piece) => piece.to.name,
  },
};

function kill(served: Served): Promise<void> {
  served.child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
  served.child.kill('SIGKILL');
  return exited;
}

for (const db of DATABASES)
  for (const [kind, audience] of Object.entries(AUDIENCES)) {
    const RECIPIENTS = audience.recipients;
    test(`${db}: SIGKILL in the middle of a run of ${kind}: the run resumes and makes each piece once`, async (t) => {
      t.timeout(240_000);
      const database = await freshDatabase(db);
      const env = {
        DATABASE_URL: database.url,
        ASSET_STORE: fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-assets-')),
        LOG_LEVEL: 'silent',
        // runs are what is tested: the pieces are not rendered (render crashes: test/print)
        WORKERS: '0',
        // the restarted engine takes the run over once the killed one's lease has run out (each job
        // makes pieces for a third of it, 2 s, then hands the rest to the next job)
        CAMPAIGN_RUN_LEASE_MS: '6000',
      };
      let served = await serve(env);
      try {
        await unlimitedAsync(env);
        const key = served.keys['test secret'];
        const api = client(served.url, key);
        const campaign = await api('POST', '/v1/campaigns', {
          json: { name: 'Crash', schedule_type: 'immediate', use_type: 'marketing', ...audience.campaign },
        });
        const cmp = campaign.body.id as string;
        await audience.prepare(t, api, served, cmp);
        const front = '<html><body>Hi</body></html>';
        const creative = await api('POST', '/v1/creatives', {
          json: { resource_type: 'postcard', campaign_id: cmp, from: FROM, front, back: front, details: {} },
        });
        t.is(creative.status, 200, JSON.stringify(creative.body));
        const run = (await api('POST', `/v1/campaigns/${cmp}/send`)).body.id as string;
        const made = async (call: typeof api) =>
          (await call('GET', `/v1/postcards?campaign_id=${cmp}&limit=1&include[]=total_count`)).body
            .total_count as number;
        // killed as soon as a first piece is seen (a cheap probe: the run shares the engine's event loop)
        const started = async () => (await api('GET', `/v1/postcards?campaign_id=${cmp}&limit=1`)).body.data.length > 0;
        while (!(await started())) await new Promise((resolve) => setTimeout(resolve, 10));
        await kill(served);

        served = await serve(env);
        const again = client(served.url, served.keys['test secret'] ?? key);
        // read before the killed job's lease runs out: nothing has moved since the kill
        const before = await made(again);
        const running = (await again('GET', `/v1/campaigns/${cmp}/runs/${run}`)).body as Record<string, unknown>;
        t.true(before < RECIPIENTS, `killed after ${before} pieces`);
        // the run shows its audience from its start
        t.like(running, { status: 'running', recipients: RECIPIENTS });
        let status = 'running';
        let body: Record<string, unknown> = {};
        for (let i = 0; i < 900 && status === 'running'; i++) {
          body = (await again('GET', `/v1/campaigns/${cmp}/runs/${run}`)).body as Record<string, unknown>;
          status = body.status as string;
          if (status === 'running') await new Promise((resolve) => setTimeout(resolve, 200));
        }
        t.like(body, { status: 'completed', recipients: RECIPIENTS, pieces_created: RECIPIENTS, skipped_count: 0 });
        t.is(await made(again), RECIPIENTS);
        const recipients = new Set<string>();
        let next: string | null = `/v1/postcards?campaign_id=${cmp}&limit=100`;
        while (next) {
          const page: { body: { data: { to: { id: string; name: string } }[]; next_url: string | null } } = await again(
            'GET',
            next,
          );
          for (const piece of page.body.data) recipients.add(audience.recipientOf(piece));
          const url = page.body.next_url === null ? null : new URL(page.body.next_url);
          next = url && url.pathname + url.search;
        }
        t.is(recipients.size, RECIPIENTS, 'one piece for each recipient');
      } finally {
        await kill(served);
        await database.drop();
      }
    });
  }
