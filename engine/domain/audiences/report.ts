// What became of each row of an upload: read from the stored file again (rows are not copied into the
// database) and joined, a batch at a time, with what the campaign's latest run recorded for them. A row
// the run made a piece of is Validated with its piece, one it skipped (or that the checks refuse) is
// Failed with the reason, one a running run has not reached yet is Processing. The report pages over
// these lines; an export writes them as a CSV file into the asset store, streamed both ways.
import { Readable } from 'node:stream';
import { campaignRuns } from '../../catalog/campaign-runs';
import type { Services } from '../services';
import type { Scope, StoredObjects } from '../../store/objects';
import { rowsOf } from './stored-rows';

export type ReportStatus = 'Validated' | 'Failed' | 'Processing';

export interface ReportLine {
  rowNumber: number;
  lineNumber: number;
  status: ReportStatus;
  errorMessage: string | null;
  mailpieceId: string | null;
  originalData: Record<string, string>;
}

const BATCH = 500;

/** The campaign's latest run, whose outcomes the report shows. */
async function latestRun(services: Services, scope: Scope, campaignId: string) {
  const page = await services.objects.list(scope, campaignRuns.name, {
    limit: 1,
    parent: campaignId,
    sort: { column: 'date_created', direction: 'desc' },
  });
  return page.data[0];
}

/** Every row's line, in file order, in batches (one query of the run's outcomes each). */
export async function* reportLines(
  services: Services,
  scope: Scope,
  upload: StoredObjects['uploads'],
): AsyncGenerator<ReportLine[]> {
  const run = await latestRun(services, scope, String(upload.campaignId));
  const running = run?.status === 'running';
  let batch: { line: ReportLine; problem?: string }[] = [];
  const flush = async () => {
    const outcomes = run
      ? await services.store.runRecipients.rowOutcomes(
          run.id,
          upload.id,
          batch.map((b) => b.line.rowNumber),
        )
      : new Map();
    const lines = batch.map(({ line, problem }) => {
      const outcome = outcomes.get(line.rowNumber);
      if (outcome?.pieceId) return { ...line, status: 'Validated' as const, mailpieceId: outcome.pieceId };
      const reason = outcome?.skipReason ?? problem;
      if (outcome || reason !== undefined) return { ...line, status: 'Failed' as const, errorMessage: reason ?? '' };
      return running ? { ...line, status: 'Processing' as const } : line;
    });
    batch = [];
    return lines;
  };
  for await (const { row, problem } of rowsOf(services, upload)) {
    batch.push({
      line: {
        rowNumber: row.rowNumber,
        lineNumber: row.lineNumber,
        status: 'Validated',
        errorMessage: null,
        mailpieceId: null,
        originalData: originalData(upload, row.values),
      },
      problem,
    });
    if (batch.length === BATCH) yield await flush();
  }
  if (batch.length) yield await flush();
}

function originalData(upload: StoredObjects['uploads'], values: string[]): Record<string, string> {
  const data: Record<string, string> = {};
  upload.columns.forEach((name, i) => {
    if (name !== '') data[name] = values[i] ?? '';
  });
  return data;
}

export interface ReportPage {
  data: ReportLine[];
  count: number;
  offset: number;
  total_count: number;
}

/** One page of the report: the lines of `status` (all when not given) after `offset`, at most `limit`. */
export async function reportPage(
  services: Services,
  scope: Scope,
  upload: StoredObjects['uploads'],
  options: { status?: ReportStatus; limit: number; offset: number },
): Promise<ReportPage> {
  const data: ReportLine[] = [];
  let matching = 0;
  for await (const lines of reportLines(services, scope, upload))
    for (const line of lines) {
      if (options.status && line.status !== options.status) continue;
      if (matching >= options.offset && data.length < options.limit) data.push(line);
      matching++;
    }
  return { data, count: data.length, offset: options.offset, total_count: matching };
}

/**
 * A CSV field, quoted when it must be. A cell a spreadsheet would read as a formula (one beginning with
 * =, +, -, @, a tab or a carriage return: OWASP's CSV injection rule) gets a leading apostrophe, so it
 * opens as the text it is; the apostrophe is shown, nothing runs.
 */
const field = (value: string) => {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

const EXPORT_COLUMNS = ['row_number', 'line_number', 'status', 'error_message', 'mailpiece_id'];

/** The export's CSV as a stream: the file's columns, then what became of the row; only the lines `keep` takes. */
export function exportCsv(
  services: Services,
  scope: Scope,
  upload: StoredObjects['uploads'],
  keep: (line: ReportLine) => boolean,
): Readable {
  const columns = upload.columns.filter((c) => c !== '');
  async function* chunks() {
    yield `${[...columns, ...EXPORT_COLUMNS].map(field).join(',')}\r\n`;
    for await (const lines of reportLines(services, scope, upload)) {
      const text = lines
        .filter(keep)
        .map((l) =>
          [
            ...columns.map((c) => l.originalData[c] ?? ''),
            String(l.rowNumber),
            String(l.lineNumber),
            l.status,
            l.errorMessage ?? '',
            l.mailpieceId ?? '',
          ]
            .map(field)
            .join(','),
        )
        .map((row) => `${row}\r\n`)
        .join('');
      if (text) yield text;
    }
  }
  return Readable.from(chunks());
}
