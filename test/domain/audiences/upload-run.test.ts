// A campaign whose audience is an uploaded CSV of 10,000 good rows and a few bad ones, on both
// databases: one run makes exactly one piece per good row (its address, merge variables and metadata
// from the row's columns), skips each bad row with its reason, and the upload's report and its
// failures export name those rows. Rendering is off (WORKERS=0): the run's work is piece creation.
import { databaseSuite } from '../../helpers/suite';
import { CSV_HEADER, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';

const { test } = databaseSuite();

const GOOD = 10_000;
/** Bad rows, each with the reason the run and the report give, placed among the good ones. */
const BAD: [string, RegExp][] = [
  ['Ragged,row', /2 fields where the header has 8/],
  ['No State,1 Main St,,Springfield,,62701,X,s1', /to\.address_state is required/],
  ['Bad Zip,1 Main St,,Springfield,IL,6270,X,s1', /address_zip must be in the format/],
  [',1 Main St,,Springfield,IL,62701,X,s1', /name or to\.company is required/],
  [csvRow(7), /duplicate of row 9/],
];

test('a 10,000-row upload makes 10,000 pieces in one run; bad rows are skipped and reported', async (t, ctx) => {
  t.timeout(300_000);
  const { api, engine } = ctx;
  const campaignId = await uploadCampaign(t, api);
  const uploadId = await createUpload(t, api, campaignId);
  const lines = [CSV_HEADER];
  for (let i = 0; i < GOOD; i++) {
    lines.push(csvRow(i));
    if (i % 2_000 === 1_000) lines.push(BAD[(i - 1_000) / 2_000][0]);
  }
  const sent = await sendFile(engine.url, engine.keys.test, uploadId, `${lines.join('\n')}\n`);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  t.like((await api('GET', `/v1/uploads/${uploadId}`)).body, {
    state: 'Scheduled',
    totalMailpieces: GOOD + BAD.length,
    failedMailpieces: BAD.length,
  });

  const started = Date.now();
  const run = (await api('POST', `/v1/campaigns/${campaignId}/send`)).body.id as string;
  let body: Record<string, unknown> = {};
  for (let i = 0; i < 1_200; i++) {
    body = (await api('GET', `/v1/campaigns/${campaignId}/runs/${run}`)).body;
    if (body.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  t.log(`${engine.db}: ${GOOD} pieces in ${seconds.toFixed(1)} s (${Math.round(GOOD / seconds)}/s)`);
  t.like(body, { status: 'completed', recipients: GOOD + BAD.length, pieces_created: GOOD, skipped_count: BAD.length });
  const skipped = body.skipped as { upload_id: string; row_number: number; reason: string }[];
  BAD.forEach(([, reason], i) => {
    t.like(skipped[i], { upload_id: uploadId, row_number: 1_000 + i * 2_000 + i + 3 });
    t.regex(skipped[i].reason, reason);
  });
  const pieces = await api('GET', `/v1/postcards?campaign_id=${campaignId}&limit=1&include[]=total_count`);
  t.is(pieces.body.total_count, GOOD);
  const piece = pieces.body.data[0];
  const row = Number(/^Recipient (\d+)$/i.exec(piece.to.name)?.[1]);
  t.like(piece, {
    merge_variables: { code: `C${row}` },
    metadata: { segment: `s${row % 3}` },
    to: { address_city: 'SAN FRANCISCO' },
  });

  // the report: every bad row, and the piece of a good one
  const failed = (await api('GET', `/v1/uploads/${uploadId}/report?status=Failed`)).body;
  t.is(failed.total_count, BAD.length);
  t.deepEqual(
    failed.data.map((l: { rowNumber: number }) => l.rowNumber),
    skipped.map((s) => s.row_number),
  );
  const first = (await api('GET', `/v1/uploads/${uploadId}/report?limit=1`)).body.data[0];
  t.like(first, { rowNumber: 2, status: 'Validated', originalData: { name: 'Recipient 0' } });
  t.regex(first.mailpieceId, /^psc_/);

  // the failures as a CSV file
  const exported = await api('POST', `/v1/uploads/${uploadId}/exports`, { json: { type: 'failures' } });
  t.is(exported.body.message, 'Export is processing');
  const shown = (await api('GET', `/v1/uploads/${uploadId}/exports/${exported.body.exportId}`)).body;
  t.like(shown, { uploadId, type: 'failures', state: 'succeeded', deleted: false });
  const csv = await (await fetch(shown.s3Url)).text();
  const rows = csv.trimEnd().split('\r\n');
  t.is(rows[0], `${CSV_HEADER},row_number,line_number,status,error_message,mailpiece_id`);
  t.is(rows.length, BAD.length + 1);
  t.true(rows[1].startsWith(`Ragged,row,,,,,,,${skipped[0].row_number},${skipped[0].row_number},Failed,`));
});
