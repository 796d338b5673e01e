// A campaign whose audience is an upload: its rows, read again from the stored file on each pass (in
// bounded memory, whatever the file's length), each with what it makes or why it cannot. The checks
// are the ones the upload's counts and report use (../uploads/rows.ts), in file order, so a duplicate
// is always the later row.
import { uploads } from '../../catalog/audience-uploads';
import type { Services } from '../../services';
import type { ApiObject, Scope } from '../../store/objects';
import { checkedHeader, readCsv, type CsvRow } from '../uploads/csv';
import { RowReader, mappingOf, type RowParts } from '../uploads/rows';

export interface AudienceRow {
  row: CsvRow;
  parts: RowParts;
  /** why the row makes no piece */
  problem?: string;
}

/** The campaign's upload (a campaign has at most one), if it has one. */
export async function uploadOf(services: Services, scope: Scope, campaignId: string): Promise<ApiObject | undefined> {
  return (await services.objects.children(scope, uploads.name, [campaignId])).get(campaignId)?.[0];
}

/** Why the upload cannot be sent to yet, if it cannot. */
export const notReady = (upload: ApiObject): string | undefined =>
  upload.state === 'Scheduled'
    ? undefined
    : `the campaign's upload ${upload.id} is not ready: it needs its file and an address mapping`;

/** Every row of the upload's file, in order. */
export async function* rowsOf(services: Services, upload: ApiObject): AsyncGenerator<AudienceRow> {
  const stored = await services.assets.getStream(String(upload.file_key));
  if (!stored) throw new Error(`the file of upload ${upload.id} is missing from the asset store`);
  const csv = readCsv(stored.stream);
  try {
    const first = await csv.next();
    const reader = new RowReader(mappingOf(upload), checkedHeader(first.done ? undefined : first.value));
    for await (const row of csv) {
      if (Array.isArray(row)) continue;
      const parts = reader.parts(row);
      yield { row, parts, problem: reader.problem(row, parts) };
    }
  } finally {
    await csv.return();
  }
}
