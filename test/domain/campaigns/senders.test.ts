// The sender never gets its own mail (both databases): a campaign leaves its own senders (its creatives'
// `from`) out of its audience by person, not by address id, so the company entered again in the address
// book, or as a row of an uploaded customer list, gets no piece; each is shown skipped with the reason.
import { databaseSuite } from '../../helpers/suite';
import { FROM, TO } from '../../helpers/mail';
import { campaignPieces, newCampaign, postcardCreative, settledRun } from '../../helpers/campaign';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';

const { test } = databaseSuite();

interface Skipped {
  address_id?: string;
  row_number?: number;
  code: string;
  reason: string;
}

test('a book audience leaves out every entry of the campaign sender, by person', async (t, { api }) => {
  const segment = `senders-${Date.now()}`;
  const add = async (entry: Record<string, unknown>) => {
    const reply = await api('POST', '/v1/addresses', { json: { ...entry, metadata: { segment } } });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    return reply.body.id as string;
  };
  const sender = await add(FROM);
  // the same office saved again by a customer list: another id, written another way
  const again = await add({ ...FROM, name: '  leore   AVIDAR ', address_line1: '185 Berry Street' });
  const customer = await add(TO);
  const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
  await postcardCreative(t, api, cmp.id, { from: sender });
  const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
  t.is(run.status, 200, JSON.stringify(run.body));
  const done = await settledRun(api, cmp.id, run.body.id);
  t.deepEqual(
    (await campaignPieces(api, cmp.id)).map((p) => p.to.id),
    [customer],
    JSON.stringify(done),
  );
  const skipped = done.skipped as Skipped[];
  t.deepEqual(skipped.map((s) => s.address_id).sort(), [sender, again].sort());
  for (const s of skipped) t.regex(s.reason, new RegExp(`campaign's sender.*${sender}`));
});

test("an uploaded row naming the campaign's sender is skipped with the reason", async (t, { api, engine }) => {
  const campaignId = await uploadCampaign(t, api);
  const uploadId = await createUpload(t, api, campaignId);
  // the creative's sender (FROM, Leore Avidar at 185 Berry St) is also on the customer list
  const senderRow = 'LEORE  avidar,185 Berry Street,,San Francisco,CA,94107,S1,s1';
  const sent = await sendFile(
    engine.url,
    engine.keys.test,
    uploadId,
    `${[CSV_HEADER, csvRow(1), senderRow].join('\n')}\n`,
  );
  t.is(sent.status, 200, JSON.stringify(sent.body));
  const run = await api('POST', `/v1/campaigns/${campaignId}/send`);
  t.is(run.status, 200, JSON.stringify(run.body));
  const done = await settledRun(api, campaignId, run.body.id);
  t.like(done, { status: 'completed', recipients: 2, pieces_created: 1, skipped_count: 1 });
  const pieces = await campaignPieces(api, campaignId);
  t.deepEqual(
    pieces.map((p) => p.to.name),
    ['RECIPIENT 1'],
  );
  const [skipped] = done.skipped as Skipped[];
  t.is(skipped.row_number, 3);
  t.regex(skipped.reason, /campaign's sender/);
});
