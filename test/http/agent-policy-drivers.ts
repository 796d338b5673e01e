// One driver for each operation the catalog says makes mailpieces (`mails`), for the agent policy test:
// it makes that operation's pieces in live mode with an AI agent's requests (the Printpost-Agent
// header, as the MCP server and keys marked `--agent` are held) and answers the reply of the call that
// starts them and how many pieces it asks for. An operation that mails `later` is driven by the agent
// and its campaign then sent by a person: the campaign is agent-driven, so its run is held all the same.
import { readMicrodeposits } from '../../engine/store/microdeposits';
import type { Knex } from 'knex';
import type { client, Reply } from '../helpers/http';
import { check, FROM, letter, ok, postcard, selfMailer, snapPack, TO } from '../helpers/mail';
import { BACK, FRONT } from '../helpers/campaign';
import { CSV_HEADER, MAPPING, csvRow } from '../helpers/audience';

type Api = ReturnType<typeof client>;

export interface Actors {
  url: string;
  /** the account's live secret key, as a person uses it */
  human: Api;
  /** the same key with Printpost-Agent: an AI agent */
  agent: Api;
  key: string;
  knex: Knex;
}

export interface Driven {
  /** the reply of the call that makes the pieces (a create, or the campaign's send) */
  reply: Reply;
  /** the pieces it asks for */
  pieces: number;
  /** the campaign, when pieces are made by its run */
  campaign?: string;
}

export type Driver = (actors: Actors) => Promise<Driven>;

/** Two people of the live address book: a campaign's audience of two pieces a creative. */
async function audience(human: Api): Promise<string[]> {
  const one = await ok(human, 'POST', '/v1/addresses', TO);
  const two = await ok(human, 'POST', '/v1/addresses', { ...TO, name: 'Ada Lovelace', address_line1: '1 Main St' });
  return [String(one.id), String(two.id)];
}

const creative = (campaign: string) => ({
  resource_type: 'postcard',
  campaign_id: campaign,
  from: FROM,
  front: FRONT,
  back: BACK,
  details: {},
});

/** A campaign (by `who`) with an audience of two addresses. */
async function campaignOfTwo(who: Api, human: Api): Promise<string> {
  const audienceIds = await audience(human);
  const made = await ok(who, 'POST', '/v1/campaigns', {
    name: 'Agent policy',
    schedule_type: 'immediate',
    use_type: 'marketing',
    audience: { address_ids: audienceIds },
  });
  return String(made.id);
}

/** A campaign of two addresses with a postcard creative, made by a person. */
async function humanCampaign(human: Api): Promise<string> {
  const id = await campaignOfTwo(human, human);
  await ok(human, 'POST', '/v1/creatives', creative(id));
  return id;
}

const send = async (who: Api, campaign: string): Promise<Driven> => ({
  reply: await who('POST', `/v1/campaigns/${campaign}/send`),
  pieces: 2,
  campaign,
});

/** A campaign with a creative whose audience is an upload, its file not sent yet. */
async function uploadCampaign(human: Api, uploadBy: Api): Promise<{ campaign: string; upload: string }> {
  const campaign = String(
    (await ok(human, 'POST', '/v1/campaigns', { name: 'File', schedule_type: 'immediate', use_type: 'marketing' })).id,
  );
  await ok(human, 'POST', '/v1/creatives', creative(campaign));
  const upload = String((await ok(uploadBy, 'POST', '/v1/uploads', { campaignId: campaign, ...MAPPING })).id);
  return { campaign, upload };
}

/** Sends the upload's file of two rows, as an agent (with the header) or a person. */
async function sendRows(actors: Actors, upload: string, asAgent: boolean): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([[CSV_HEADER, csvRow(1), csvRow(2)].join('\n')], { type: 'text/csv' }), 'a.csv');
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${actors.key}:`).toString('base64')}`,
  };
  if (asAgent) headers['Printpost-Agent'] = '1';
  const response = await fetch(`${actors.url}/v1/uploads/${upload}/file`, { method: 'POST', headers, body: form });
  if (response.status !== 200) throw new Error(`upload file: ${response.status} ${await response.text()}`);
}

/** A live bank account, verified with its micro-deposits (read where the engine keeps them). */
async function liveBankAccount({ human, knex }: Actors): Promise<string> {
  const account = await ok(human, 'POST', '/v1/bank_accounts', {
    routing_number: '322271627',
    account_number: '123456789',
    account_type: 'company',
    signatory: 'Jane Doe',
  });
  const amounts = await readMicrodeposits(knex, String(account.id));
  await ok(human, 'POST', `/v1/bank_accounts/${String(account.id)}/verify`, { amounts });
  return String(account.id);
}

const create =
  (path: string, body: (actors: Actors) => Promise<Record<string, unknown>> | Record<string, unknown>): Driver =>
  async (actors) => ({ reply: await actors.agent('POST', path, { json: await body(actors) }), pieces: 1 });

export const DRIVERS: Record<string, Driver> = {
  'postcards.create': create('/v1/postcards', () => postcard()),
  'self_mailers.create': create('/v1/self_mailers', () => selfMailer()),
  'letters.create': create('/v1/letters', () => letter()),
  'checks.create': create('/v1/checks', async (actors) => check(await liveBankAccount(actors))),
  'snap_packs.create': create('/v1/snap_packs', () => snapPack()),
  'campaigns.send': async ({ human, agent }) => send(agent, await humanCampaign(human)),
  'campaigns.create': async ({ human, agent }) => {
    const id = await campaignOfTwo(agent, human);
    await ok(human, 'POST', '/v1/creatives', creative(id));
    return send(human, id);
  },
  'campaigns.update': async ({ human, agent }) => {
    const id = await humanCampaign(human);
    await ok(agent, 'PATCH', `/v1/campaigns/${id}`, { description: 'changed by an agent' });
    return send(human, id);
  },
  'creatives.create': async ({ human, agent }) => {
    const id = await campaignOfTwo(human, human);
    await ok(agent, 'POST', '/v1/creatives', creative(id));
    return send(human, id);
  },
  'creatives.update': async ({ human, agent }) => {
    const id = await campaignOfTwo(human, human);
    const made = await ok(human, 'POST', '/v1/creatives', creative(id));
    await ok(agent, 'PATCH', `/v1/creatives/${String(made.id)}`, { description: 'changed by an agent' });
    return send(human, id);
  },
  'uploads.create': async (actors) => {
    const { campaign, upload } = await uploadCampaign(actors.human, actors.agent);
    await sendRows(actors, upload, false);
    return send(actors.human, campaign);
  },
  'uploads.update': async (actors) => {
    const { campaign, upload } = await uploadCampaign(actors.human, actors.human);
    await ok(actors.agent, 'PATCH', `/v1/uploads/${upload}`, { originalFilename: 'agent.csv' });
    await sendRows(actors, upload, false);
    return send(actors.human, campaign);
  },
  'uploads.file': async (actors) => {
    const { campaign, upload } = await uploadCampaign(actors.human, actors.human);
    await sendRows(actors, upload, true);
    return send(actors.human, campaign);
  },
};
