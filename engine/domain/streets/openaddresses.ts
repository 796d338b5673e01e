// An OpenAddresses CSV (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH): one address
// point a row, read as a stream with csv-parse. The source is the file's name: loading a file of that
// name again replaces what it loaded.
import fs from 'node:fs';
import path from 'node:path';
import { CommandRefused } from '../../base/errors';
import { csvParse } from '../../base/packages';
import type { StreetRecord, StreetSource } from './sources';
import { streetKeyMaker, unitKey } from './street-key';

export const OPENADDRESSES_FIELDS = ['LON', 'LAT', 'NUMBER', 'STREET', 'UNIT', 'POSTCODE'];

/** The header line, read alone, so a file without the fields is refused before any row is loaded. */
async function headerOf(file: string): Promise<string[]> {
  const stream = fs.createReadStream(file, { start: 0, end: 64 * 1024 - 1 });
  let text = '';
  for await (const chunk of stream) {
    text += Buffer.isBuffer(chunk) ? chunk.toString('utf8') : String(chunk);
    if (text.includes('\n')) break;
  }
  stream.destroy();
  const line = text.split(/\r?\n/)[0].replace(/^\uFEFF/, '');
  return line.split(',').map((f) => f.trim().replace(/^"|"$/g, '').toUpperCase());
}

export async function openOpenAddressesFile(file: string): Promise<StreetSource> {
  const name = path.basename(file);
  const header = await headerOf(file);
  const missing = OPENADDRESSES_FIELDS.filter((f) => !header.includes(f));
  if (missing.length > 0)
    throw new CommandRefused(
      `${name} is not an OpenAddresses CSV: its header lacks ${missing.join(', ')} (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH).`,
    );
  const size = Math.max(1, fs.statSync(file).size);
  const input = fs.createReadStream(file);
  let read = 0;
  input.on('data', (chunk) => (read += chunk.length));
  const keyOf = streetKeyMaker();
  async function* records(): AsyncGenerator<StreetRecord> {
    const parser = input.pipe(
      csvParse().parse({
        columns: (h: string[]) => h.map((f) => f.trim().toUpperCase()),
        bom: true,
        relax_column_count: true,
      }),
    );
    try {
      for await (const parsed of parser) {
        const row: Record<string, string | undefined> = parsed;
        const zip = /^(\d{5})(-?\d{4})?$/.exec((row.POSTCODE ?? '').trim())?.[1];
        if (!zip) {
          yield { skip: 'no 5-digit POSTCODE' };
          continue;
        }
        const number = (row.NUMBER ?? '').trim().toUpperCase();
        if (number === '') {
          yield { skip: 'no house NUMBER' };
          continue;
        }
        const key = keyOf((row.STREET ?? '').trim());
        if (!key) {
          yield { skip: 'no STREET name' };
          continue;
        }
        const lon = Number(row.LON);
        const lat = Number(row.LAT);
        if (!Number.isFinite(lon) || !Number.isFinite(lat) || (row.LON ?? '').trim() === '' || Math.abs(lat) > 90) {
          yield { skip: 'no LON/LAT' };
          continue;
        }
        yield { point: { zip, street_key: key, number, unit: unitKey(row.UNIT ?? ''), lon, lat } };
      }
    } catch (error) {
      throw new CommandRefused(`${name} is not valid CSV (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
  return {
    kind: 'openaddresses',
    source: name.replace(/\.csv$/i, ''),
    records: records(),
    progress: () => Math.min(1, read / size),
    close: async () => {
      input.destroy();
    },
  };
}
