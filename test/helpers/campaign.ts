// Campaign fixtures over HTTP: a campaign, a postcard creative, a run once it has ended, a campaign's pieces.
import type { ExecutionContext } from 'ava';
import type { client } from './http';
import { FROM } from './mail';

type Api = ReturnType<typeof client>;

export const FRONT = '<html><body><h1>Hello</h1></body></html>';
export const BACK = '<html><body><p>Back</p></body></html>';

export async function newCampaign(t: ExecutionContext, api: Api, extra: Record<string, unknown> = {}) {
  const reply = await api('POST', '/v1/campaigns', {
    json: { name: 'Winter', schedule_type: 'immediate', use_type: 'marketing', ...extra },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string; status: string } & Record<string, unknown>;
}

export async function postcardCreative(
  t: ExecutionContext,
  api: Api,
  campaignId: string,
  extra: Record<string, unknown> = {},
) {
  const reply = await api('POST', '/v1/creatives', {
    json: {
      resource_type: 'postcard',
      campaign_id: campaignId,
      from: FROM,
      front: FRONT,
      back: BACK,
      details: {},
      ...extra,
    },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  return reply.body as { id: string; from: string };
}

/** The run once it is no longer running. */
export async function settledRun(api: Api, campaignId: string, runId: string) {
  for (let i = 0; i < 600; i++) {
    const reply = await api('GET', `/v1/campaigns/${campaignId}/runs/${runId}`);
    if (reply.body.status !== 'running') return reply.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} still running`);
}

export interface CampaignPiece {
  id: string;
  to: { id: string; name: string | null };
  campaign_id: string;
  send_date: string;
  date_created: string;
}

/** Every postcard of the campaign (following next_url). */
export async function campaignPieces(api: Api, campaignId: string): Promise<CampaignPiece[]> {
  const pieces: CampaignPiece[] = [];
  let path: string | null = `/v1/postcards?campaign_id=${campaignId}&limit=100`;
  while (path) {
    const reply: { body: { data: CampaignPiece[]; next_url: string | null } } = await api('GET', path);
    pieces.push(...reply.body.data);
    const next = reply.body.next_url === null ? null : new URL(reply.body.next_url);
    path = next && next.pathname + next.search;
  }
  return pieces;
}
