// Reading an audience CSV as a stream, a row at a time, so a file of any length is read in bounded
// memory: csv-parse (RFC 4180: quoted commas, quotes and line breaks inside fields, CRLF or LF, a UTF-8
// BOM) behind a strict UTF-8 check, since csv-parse would quietly turn bad bytes into U+FFFD. What makes
// the whole file unreadable is a 422 naming the line; a row that is merely wrong is the caller's to judge.
import { Transform, type Readable } from 'node:stream';
import type { Info } from 'csv-parse';
import { ApiError } from '../../base/errors';
import { csvParse } from '../../base/packages';

/** The largest row: a field past this is refused rather than buffered without end. */
export const MAX_ROW_BYTES = 65_536;
/** Rows a file may have (the header aside). */
export const MAX_ROWS = 500_000;

export interface CsvRow {
  /** the row's number in the file, the header being row 1 (as a spreadsheet shows it) */
  rowNumber: number;
  /** the line the row starts on (a quoted field may hold line breaks) */
  lineNumber: number;
  values: string[];
}

const unreadable = (message: string) => new ApiError('invalid', `the file ${message}`, 422);

/** Passes the bytes through unchanged, failing on the first that is not UTF-8; notes where lines start. */
class Utf8Lines extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private offset = 0;
  /** byte offsets of the line feeds not yet passed by a row */
  readonly feeds: number[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void) {
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      return done(unreadable(`is not UTF-8 text (the bytes after offset ${this.offset} are not UTF-8)`));
    }
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.feeds.push(this.offset + at);
    this.offset += chunk.length;
    done(null, chunk);
  }

  override _flush(done: (error?: Error | null) => void) {
    try {
      this.decoder.decode();
      done();
    } catch {
      done(unreadable('is not UTF-8 text (it ends inside a character)'));
    }
  }
}

function parseFailure(error: unknown): Error {
  if (error instanceof ApiError) return error;
  if (!(error instanceof csvParse().CsvError)) return error as Error;
  const line = /at line (\d+)/.exec(error.message)?.[1];
  const where = line ? ` (line ${line})` : '';
  if (error.code === 'CSV_MAX_RECORD_SIZE') return unreadable(`has a row larger than ${MAX_ROW_BYTES} bytes${where}`);
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') return unreadable(`ends inside a quoted field${where}`);
  return unreadable(`is not valid CSV${where}: ${error.message.replace(/ at line \d+$/, '')}`);
}

/**
 * The header (its names trimmed) and then each row of a CSV stream. Blank lines are passed over; the
 * source is destroyed when the reading stops early or fails.
 */
export async function* readCsv(source: Readable): AsyncGenerator<string[] | CsvRow, void, undefined> {
  const lines = new Utf8Lines();
  const parser = csvParse().parse({ bom: true, relax_column_count: true, max_record_size: MAX_ROW_BYTES, info: true });
  source.on('error', (error) => lines.destroy(error));
  lines.on('error', (error) => parser.destroy(error));
  source.pipe(lines).pipe(parser);
  let rowNumber = 0;
  let start = 0;
  let line = 1;
  let header = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      while (lines.feeds.length && lines.feeds[0] < start) {
        lines.feeds.shift();
        line++;
      }
      const lineNumber = line;
      start = info.bytes;
      rowNumber++;
      if (record.length === 1 && record[0] === '') continue; // a blank line
      if (!header) {
        header = true;
        yield record.map((name) => name.trim());
        continue;
      }
      if (rowNumber > MAX_ROWS + 1) throw unreadable(`has more than ${MAX_ROWS} rows`);
      yield { rowNumber, lineNumber, values: record };
    }
  } catch (error) {
    throw parseFailure(error);
  } finally {
    source.unpipe(lines);
    source.destroy();
    parser.destroy();
  }
}

/** The header of a CSV, checked: not empty, and no name twice. */
export function checkedHeader(header: string[] | CsvRow | undefined): string[] {
  if (header === undefined || !Array.isArray(header)) throw unreadable('is empty: it needs a header row and rows');
  const seen = new Set<string>();
  for (const name of header) {
    if (name !== '' && seen.has(name)) throw unreadable(`names the column "${name.slice(0, 100)}" twice`);
    seen.add(name);
  }
  if (header.every((name) => name === '')) throw unreadable('has an empty header row');
  return header;
}
