// Audience uploads over HTTP on both databases: the vendor's shape and operations, and every kind of
// file a customer may send: a BOM, CRLF line ends, quoted commas and line breaks (read as rows); ragged
// rows, bad addresses and duplicates (rows in the report); and what makes a file unreadable (not
// UTF-8, empty, a header only, a mapped column missing, an unclosed quote, a huge field), each a 422 in
// the spec's error body that leaves the upload as it was.
import fs from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { CSV_HEADER, MAPPING, createUpload, csvRow, sendFile, uploadCampaign } from '../../helpers/audience';
import { vendorResponseErrors } from '../../helpers/vendorSchema';

const { test } = databaseSuite();

type Ctx = SuiteContext;

async function freshUpload(t: ExecutionContext, { api }: Ctx, mapping: object = MAPPING) {
  return createUpload(t, api, await uploadCampaign(t, api), mapping);
}

const send = (ctx: Ctx, id: string, bytes: Buffer | string) =>
  sendFile(ctx.engine.url, ctx.engine.keys.test, id, bytes);

async function refused(t: ExecutionContext, ctx: Ctx, bytes: Buffer | string, message: RegExp, mapping?: object) {
  const id = await freshUpload(t, ctx, mapping);
  const reply = await send(ctx, id, bytes);
  t.is(reply.status, 422, JSON.stringify(reply.body));
  t.like(reply.body, { error: { code: 'invalid', status_code: 422 } });
  t.regex(String(reply.body.error?.message), message);
  // nothing was kept: the upload is as it was, and takes a good file afterwards
  t.like((await ctx.api('GET', `/v1/uploads/${id}`)).body, { state: 'Draft', totalMailpieces: 0, columns: [] });
  t.is((await send(ctx, id, `${CSV_HEADER}\n${csvRow(1)}\n`)).status, 200);
}

test('an upload has the vendor shape; list by campaign, update, delete; the campaign shows it', async (t, ctx) => {
  const { api } = ctx;
  const campaignId = await uploadCampaign(t, api);
  const id = await createUpload(t, api, campaignId, {
    requiredAddressColumnMapping: MAPPING.requiredAddressColumnMapping,
  });
  t.regex(id, /^upl_/);
  const created = (await api('GET', `/v1/uploads/${id}`)).body;
  t.like(created, {
    object: 'upload',
    campaignId,
    mode: 'test',
    state: 'Draft',
    totalMailpieces: 0,
    metadata: { columns: [] },
    mergeVariableColumnMapping: null,
    requiredAddressColumnMapping: MAPPING.requiredAddressColumnMapping,
    optionalAddressColumnMapping: { address_line2: null, company: null, address_country: null },
  });
  t.false('file_key' in created);
  t.false('originalFilename' in created);
  t.deepEqual(vendorResponseErrors('GET', `/v1/uploads/${id}`, 200, created), [], 'the vendor schema of an upload');
  const early = await api('POST', `/v1/campaigns/${campaignId}/send`);
  t.is(early.status, 422, 'a campaign whose upload has no file yet sends nothing');
  t.regex(early.body.error.message, /not ready/);
  t.is((await api('POST', '/v1/uploads', { json: { campaignId } })).status, 422, 'a campaign has one upload');
  t.is((await api('POST', '/v1/uploads', { json: { campaignId: 'cmp_nope' } })).status, 404);
  const sent = await send(ctx, id, `${CSV_HEADER}\n${csvRow(1)}\n${csvRow(2)}\n`);
  t.deepEqual(sent, { status: 200, body: { message: 'File uploaded successfully', filename: 'audience.csv' } });
  const patched = await api('PATCH', `/v1/uploads/${id}`, { json: { metadata: { columns: ['segment'] } } });
  t.like(patched.body, {
    state: 'Scheduled',
    totalMailpieces: 2,
    validatedMailpieces: 2,
    metadata: { columns: ['segment'] },
  });
  const wrong = await api('PATCH', `/v1/uploads/${id}`, { json: { metadata: { columns: ['nope'] } } });
  t.is(wrong.status, 422);
  t.regex(wrong.body.error.message, /no column "nope"/);
  t.is((await send(ctx, id, `${CSV_HEADER}\n${csvRow(1)}\n`)).status, 422, 'one file per upload');
  const listed = await api('GET', `/v1/uploads?campaignId=${campaignId}`);
  t.deepEqual(
    listed.body.data.map((u: { id: string }) => u.id),
    [id],
  );
  const campaign = (await api('GET', `/v1/campaigns/${campaignId}`)).body;
  t.like(campaign.uploads[0], { id, originalFilename: 'audience.csv', state: 'Scheduled' });
  t.deepEqual(vendorResponseErrors('GET', `/v1/campaigns/${campaignId}`, 200, campaign), []);
  t.is((await api('DELETE', `/v1/uploads/${id}`)).body.deleted, true);
  t.is((await api('GET', `/v1/uploads/${id}`)).status, 404);
  t.deepEqual((await api('GET', `/v1/campaigns/${campaignId}`)).body.uploads, []);
});

test('BOM, CRLF, quoted commas and line breaks are read; bad rows are reported by row and line', async (t, ctx) => {
  const id = await freshUpload(t, ctx);
  const csv = [
    `\uFEFF${CSV_HEADER}`,
    '"Zhang, Harry",210 King St,"Suite\r\n6100",San Francisco,CA,94107,A1,s1',
    csvRow(2),
    'Short,row',
    'No State,1 Main St,,Springfield,,62701,C4,s1',
    csvRow(2),
    '',
    csvRow(6),
  ].join('\r\n');
  const reply = await send(ctx, id, csv);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  const upload = (await ctx.api('GET', `/v1/uploads/${id}`)).body;
  t.like(upload, { state: 'Scheduled', totalMailpieces: 6, failedMailpieces: 3, validatedMailpieces: 3 });
  t.deepEqual(upload.columns, CSV_HEADER.split(','));
  const report = (await ctx.api('GET', `/v1/uploads/${id}/report?status=Failed`)).body;
  t.is(report.total_count, 3);
  t.deepEqual(
    report.data.map((l: Record<string, unknown>) => [l.rowNumber, l.lineNumber, l.status]),
    [
      [4, 5, 'Failed'],
      [5, 6, 'Failed'],
      [6, 7, 'Failed'],
    ],
  );
  t.regex(report.data[0].errorMessage, /2 fields where the header has 8/);
  t.regex(report.data[1].errorMessage, /to\.address_state is required/);
  t.regex(report.data[2].errorMessage, /duplicate of row 3/);
  const all = (await ctx.api('GET', `/v1/uploads/${id}/report?limit=2&offset=0`)).body;
  t.like(all, { count: 2, offset: 0, total_count: 6, prev_url: null });
  t.like(all.data[0], { rowNumber: 2, lineNumber: 2, status: 'Validated' });
  t.is(all.data[0].originalData.name, 'Zhang, Harry');
  t.is(all.data[0].originalData.unit, 'Suite\r\n6100');
  t.regex(all.next_url, /offset=2/);
});

test('a file that is not UTF-8 is refused', (t, ctx) =>
  refused(
    t,
    ctx,
    Buffer.concat([Buffer.from(`${CSV_HEADER}\n`), Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72, 0x0a])]),
    /not UTF-8/,
  ));

test('an empty file is refused', (t, ctx) => refused(t, ctx, '', /empty/));

test('a header without rows is refused', (t, ctx) => refused(t, ctx, `${CSV_HEADER}\r\n`, /header but no rows/));

test('a mapped column the header lacks is refused', (t, ctx) =>
  refused(t, ctx, 'name,street,city,state,zip\nA,1 Main St,Springfield,IL,62701\n', /no column "unit"/));

test('a header naming a column twice is refused', (t, ctx) =>
  refused(t, ctx, `${CSV_HEADER},name\n${csvRow(1)},x\n`, /names the column "name" twice/));

test('an unclosed quote is refused', (t, ctx) =>
  refused(t, ctx, `${CSV_HEADER}\n${csvRow(1)}\n"Open,quote\n`, /quoted field/));

test('a huge single field is refused', (t, ctx) =>
  refused(t, ctx, `${CSV_HEADER}\n${csvRow(1)}\n"${'x'.repeat(200_000)}",a,b,c,d,e,f,g\n`, /larger than 65536 bytes/));

test('a file is a multipart file: a string in its place is refused', async (t, ctx) => {
  const id = await freshUpload(t, ctx);
  const reply = await ctx.api('POST', `/v1/uploads/${id}/file`, { json: { file: 'name\nA' } });
  t.is(reply.status, 422);
  t.like(reply.body, { error: { status_code: 422 } });
});

test('100,000 rows are read in one request, and the counts are right', async (t, ctx) => {
  t.timeout(120_000);
  const id = await freshUpload(t, ctx);
  const rows = Array.from({ length: 100_000 }, (_, i) => csvRow(i));
  const reply = await send(ctx, id, `${CSV_HEADER}\n${rows.join('\n')}\n`);
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.like((await ctx.api('GET', `/v1/uploads/${id}`)).body, {
    totalMailpieces: 100_000,
    failedMailpieces: 0,
    validatedMailpieces: 100_000,
  });
});

test('a report of an upload whose file is gone from the asset store is a 409 that says to send it again', async (t, ctx) => {
  const id = await freshUpload(t, ctx);
  t.is((await send(ctx, id, `${CSV_HEADER}\n${csvRow(1)}\n`)).status, 200);
  const lost = path.join(ctx.engine.assets, 'audiences');
  for (const file of fs.readdirSync(lost).filter((f) => f.startsWith(id))) fs.rmSync(path.join(lost, file));
  const report = await ctx.api('GET', `/v1/uploads/${id}/report`);
  t.is(report.status, 409, JSON.stringify(report.body));
  t.like(report.body, { error: { code: 'conflict', status_code: 409 } });
  t.regex(String(report.body.error?.message), /send it again/);
});
