// The rows of an upload's stored file, read again as a stream on each pass of a run, each report page
// and each export (in bounded memory, whatever the file's length), each with what it makes or why it
// cannot. One reader judges them all in file order (./rows.ts), so a duplicate is always the later row.
import { ApiError } from '../../base/errors';
import type { Services } from '../services';
import type { StoredObjects } from '../../store/objects';
import { checkedHeader, readCsv, type CsvRow } from './csv';
import { RowReader, mappingOf, type RowParts } from './rows';

export interface AudienceRow {
  row: CsvRow;
  parts: RowParts;
  /** why the row makes no piece */
  problem?: string;
  /** the row is the same person as an earlier row */
  duplicate?: boolean;
  /** the person the row names (../addresses/person-key.ts), when it makes a piece */
  personKey?: string;
}

/** Every row of the upload's file, in order. */
export async function* rowsOf(services: Services, upload: StoredObjects['uploads']): AsyncGenerator<AudienceRow> {
  const stored = await services.assets.getStream(String(upload.file_key));
  // lost from the store (an operator's cleanup, another bucket): the client can only send it again
  if (!stored)
    throw new ApiError(
      'conflict',
      `The file of upload ${upload.id} is no longer in the asset store; send it again with POST /v1/uploads/${upload.id}/file.`,
      409,
    );
  const csv = readCsv(stored.stream);
  try {
    const first = await csv.next();
    const reader = new RowReader(mappingOf(upload), checkedHeader(first.done ? undefined : first.value));
    for await (const row of csv) {
      if (Array.isArray(row)) continue;
      const parts = reader.parts(row);
      yield { row, parts, ...reader.judge(row, parts) };
    }
  } finally {
    await csv.return();
  }
}
