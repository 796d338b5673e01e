// Proofs for a campaign's review over HTTP on both databases: the first rows of its uploaded CSV that
// make a piece (a refused row passed over), each creative side drawn for them with their merge
// variables by the engine's renderer; another recipient's variables draw another image.
import { databaseSuite } from '../../helpers/suite';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';

const { serial } = databaseSuite();

interface ProofItem {
  recipient: string;
  creative_id: string;
  side: string;
  image: string | null;
  problem?: string;
}

serial('proofs of the first good rows of the CSV, drawn with their merge variables', async (t, { api, engine }) => {
  t.timeout(120_000);
  const campaignId = await uploadCampaign(t, api);
  const uploadId = await createUpload(t, api, campaignId);
  const bad = 'Nobody,,,San Francisco,CA,94107,X,s0';
  const file = `${[CSV_HEADER, bad, csvRow(1), csvRow(2), csvRow(3)].join('\n')}\n`;
  const sent = await sendFile(engine.url, engine.keys.test, uploadId, file);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  const proofs = await api<{ data: ProofItem[] }>('GET', `/v1/campaigns/${campaignId}/proofs?sample=2`);
  t.is(proofs.status, 200, JSON.stringify(proofs.body));
  t.deepEqual(
    proofs.body.data.map((p) => `${p.recipient} ${p.side}`),
    ['row 3: Recipient 1 front', 'row 3: Recipient 1 back', 'row 4: Recipient 2 front', 'row 4: Recipient 2 back'],
  );
  for (const proof of proofs.body.data) t.regex(String(proof.image), /^data:image\/png;base64,/);
  t.not(proofs.body.data[0].image, proofs.body.data[2].image, 'each recipient its own code');
  t.is((await api('GET', `/v1/campaigns/${campaignId}/proofs?sample=9`)).status, 422);
  t.is((await api('GET', '/v1/campaigns/cmp_0000000000000000/proofs')).status, 404);
});
