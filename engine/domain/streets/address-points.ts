// Address point files, one point a row, read as a stream with csv-parse: an OpenAddresses CSV
// (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH) or the USDOT National Address
// Database's text export (comma-separated with a BOM; its published schema names AddNo_Full /
// Add_Number, StNam_Full, Unit / SubAddress, Zip_Code, Longitude, Latitude). The layout is told by
// the header; the source is the file's name: loading a file of that name again replaces what it loaded.
import fs from 'node:fs';
import path from 'node:path';
import { CommandRefused } from '../../base/errors';
import { csvParse } from '../../base/packages';
import type { StreetLoadKind } from '../../store/streets';
import type { StreetRecord, StreetSource } from './sources';
import { streetKeyMaker, unitKey } from './street-key';

interface Layout {
  kind: StreetLoadKind;
  title: string;
  /** the columns each value is read from, the first that has one (names upper-cased) */
  number: string[];
  street: string[];
  unit: string[];
  zip: string[];
  lon: string[];
  lat: string[];
  required: string[];
}

export const OPENADDRESSES: Layout = {
  kind: 'openaddresses',
  title: 'an OpenAddresses CSV (LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID,HASH)',
  number: ['NUMBER'],
  street: ['STREET'],
  unit: ['UNIT'],
  zip: ['POSTCODE'],
  lon: ['LON'],
  lat: ['LAT'],
  required: ['LON', 'LAT', 'NUMBER', 'STREET', 'UNIT', 'POSTCODE'],
};

export const NAD: Layout = {
  kind: 'nad',
  title: 'a National Address Database text export (Add_Number, StNam_Full, Zip_Code, Longitude, Latitude, ...)',
  number: ['ADDNO_FULL', 'ADD_NUMBER'],
  street: ['STNAM_FULL'],
  unit: ['UNIT', 'SUBADDRESS'],
  zip: ['ZIP_CODE'],
  lon: ['LONGITUDE'],
  lat: ['LATITUDE'],
  required: ['ADD_NUMBER', 'STNAM_FULL', 'ZIP_CODE', 'LONGITUDE', 'LATITUDE'],
};

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

/** The layout the header names: NAD's when it has NAD's street field, else OpenAddresses'. */
function layoutOf(header: string[]): Layout {
  return header.includes('STNAM_FULL') ? NAD : OPENADDRESSES;
}

const first = (row: Record<string, string | undefined>, columns: string[]) =>
  (columns.map((c) => (row[c] ?? '').trim()).find((v) => v !== '') ?? '').trim();

export async function openAddressPointsFile(file: string): Promise<StreetSource> {
  const name = path.basename(file);
  const header = await headerOf(file);
  const layout = layoutOf(header);
  const missing = layout.required.filter((f) => !header.includes(f));
  if (missing.length > 0)
    throw new CommandRefused(`${name} is not ${layout.title}: its header lacks ${missing.join(', ')}.`);
  const size = Math.max(1, fs.statSync(file).size);
  // paused until the loader reads the records (a 'data' listener here would start it flowing, and
  // lose what passed before the parser was piped)
  const input = fs.createReadStream(file);
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
        const zip = /^(\d{5})(-?\d{4})?$/.exec(first(row, layout.zip).replace(/\s+/g, ''))?.[1];
        if (!zip) {
          yield { skip: 'no 5-digit ZIP code' };
          continue;
        }
        const number = first(row, layout.number).toUpperCase();
        if (number === '') {
          yield { skip: 'no house number' };
          continue;
        }
        const key = keyOf(first(row, layout.street));
        if (!key) {
          yield { skip: 'no street name' };
          continue;
        }
        const lonText = first(row, layout.lon);
        const latText = first(row, layout.lat);
        const lon = Number(lonText);
        const lat = Number(latText);
        if (lonText === '' || latText === '' || !Number.isFinite(lon) || !Number.isFinite(lat) || Math.abs(lat) > 90) {
          yield { skip: 'no coordinates' };
          continue;
        }
        yield { point: { zip, street_key: key, number, unit: unitKey(first(row, layout.unit)), lon, lat } };
      }
    } catch (error) {
      throw new CommandRefused(`${name} is not valid CSV (${error instanceof Error ? error.message : String(error)}).`);
    }
  }
  return {
    kind: layout.kind,
    source: name.replace(/\.(csv|txt)$/i, ''),
    records: records(),
    progress: () => Math.min(1, input.bytesRead / size),
    close: async () => {
      input.destroy();
    },
  };
}
