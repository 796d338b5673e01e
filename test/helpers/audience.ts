// Audience upload fixtures: a campaign with a postcard creative, an upload of it with the usual
// mapping, and CSV files sent as multipart the way the vendor's clients send them.
import type { ExecutionContext } from 'ava';
import type { client } from './http';
import { FROM } from './mail';

type Call = ReturnType<typeof client>;

export const CSV_HEADER = 'name,street,unit,city,state,zip,code,segment';

export const MAPPING = {
  requiredAddressColumnMapping: {
    name: 'name',
    address_line1: 'street',
    address_city: 'city',
    address_state: 'state',
    address_zip: 'zip',
  },
  optionalAddressColumnMapping: { address_line2: 'unit' },
  mergeVariableColumnMapping: { code: 'code' },
  metadata: { columns: ['segment'] },
};

/** A valid row: recipient `i` on King St in San Francisco. */
export const csvRow = (i: number) =>
  `Recipient ${i},${100 + (i % 900)} King St,Apt ${i},San Francisco,CA,94107,C${i},s${i % 3}`;

/** A campaign with one postcard creative that prints the `code` merge variable. */
export async function uploadCampaign(t: ExecutionContext, api: Call): Promise<string> {
  const campaign = await api('POST', '/v1/campaigns', {
    json: { name: 'From a file', schedule_type: 'immediate', use_type: 'marketing' },
  });
  t.is(campaign.status, 200, JSON.stringify(campaign.body));
  const front = '<html><body>Your code: {{code}}</body></html>';
  const creative = await api('POST', '/v1/creatives', {
    json: { resource_type: 'postcard', campaign_id: campaign.body.id, from: FROM, front, back: front, details: {} },
  });
  t.is(creative.status, 200, JSON.stringify(creative.body));
  return campaign.body.id as string;
}

export async function createUpload(t: ExecutionContext, api: Call, campaignId: string, mapping: object = MAPPING) {
  const reply = await api('POST', '/v1/uploads', { json: { campaignId, ...mapping } });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.id as string;
}

/** Posts `bytes` as the upload's file (multipart, field `file`). */
export async function sendFile(
  baseUrl: string,
  key: string,
  uploadId: string,
  bytes: Buffer | string,
  name = 'audience.csv',
) {
  const form = new FormData();
  form.append('file', new Blob([bytes], { type: 'text/csv' }), name);
  const response = await fetch(`${baseUrl}/v1/uploads/${uploadId}/file`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}
