// A Census Bureau TIGER/Line ADDRFEAT county file (tl_YYYY_SSCCC_addrfeat.zip): a shapefile whose
// lines carry a street's full name and the address range, ZIP and parity of each side. Read with the
// `shapefile` package from the unpacked entries, a record at a time.
import fs from 'node:fs';
import path from 'node:path';
import type { Geometry } from 'geojson';
import { CommandRefused } from '../../base/errors';
import type { SegmentRow } from '../../store/streets';
import type { StreetRecord, StreetSource } from './sources';
import { streetKeyMaker } from './street-key';
import { unzipEntries } from './unzip';

/** Loaded on the first import only: serving engines never read shapefiles. */
const shapefilePackage = () => import('shapefile');

export const TIGER_FILE = /^tl_(\d{4})_(\d{5})_addrfeat\.zip$/i;
export const TIGER_FIELDS = ['FULLNAME', 'LFROMHN', 'LTOHN', 'RFROMHN', 'RTOHN', 'ZIPL', 'ZIPR', 'PARITYL', 'PARITYR'];

type Properties = Record<string, unknown>;

interface Side {
  zip: string;
  from: number;
  to: number;
  parity: string;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v).trim());
const WHOLE = /^\d{1,9}$/;

/** One side's range; a string when the side has numbers the engine cannot read (why it is left out). */
function side(p: Properties, from: string, to: string, zip: string, parity: string): Side | string | undefined {
  const f = text(p[from]);
  const t = text(p[to]);
  if (f === '' && t === '') return undefined;
  if (!WHOLE.test(f) || !WHOLE.test(t)) return 'house numbers that are not whole numbers (e.g. 12-34)';
  const z = text(p[zip]);
  if (!/^\d{5}$/.test(z)) return 'an address range without a ZIP code';
  const a = Number(f);
  const b = Number(t);
  let par = text(p[parity]).toUpperCase();
  if (par !== 'O' && par !== 'E' && par !== 'B') par = a % 2 === b % 2 ? (a % 2 === 1 ? 'O' : 'E') : 'B';
  return { zip: z, from: a, to: b, parity: par };
}

const coordinate = (n: number) => Number(n.toFixed(6)).toString();

/** The line's vertices as stored: "lon,lat lon,lat ..." (a multi-line's parts end to end). */
function coordsOf(geometry: Geometry | null): string | undefined {
  if (!geometry) return undefined;
  const lines =
    geometry.type === 'LineString'
      ? [geometry.coordinates]
      : geometry.type === 'MultiLineString'
        ? geometry.coordinates
        : [];
  const points = lines.flat();
  if (points.length === 0) return undefined;
  return points.map(([lon, lat]) => `${coordinate(lon)},${coordinate(lat)}`).join(' ');
}

/** One ADDRFEAT record as segment rows: one row a ZIP (both sides share it when ZIPL = ZIPR). */
export function segmentsOf(
  p: Properties,
  geometry: Geometry | null,
  county: string,
  keyOf: (name: string) => string | undefined,
): StreetRecord {
  const key = keyOf(text(p.FULLNAME));
  if (!key) return { skip: 'no street name' };
  const left = side(p, 'LFROMHN', 'LTOHN', 'ZIPL', 'PARITYL');
  const right = side(p, 'RFROMHN', 'RTOHN', 'ZIPR', 'PARITYR');
  if (left === undefined && right === undefined) return { skip: 'no address range' };
  const l = typeof left === 'object' ? left : undefined;
  const r = typeof right === 'object' ? right : undefined;
  // a side the engine cannot read is dropped; a record with no readable side is skipped for it
  if (!l && !r) return { skip: typeof left === 'string' ? left : String(right) };
  const coords = coordsOf(geometry);
  if (!coords) return { skip: 'no line geometry' };
  const row = (zip: string, withL: boolean, withR: boolean): SegmentRow => ({
    zip,
    street_key: key,
    l_from: withL && l ? l.from : null,
    l_to: withL && l ? l.to : null,
    l_parity: withL && l ? l.parity : null,
    r_from: withR && r ? r.from : null,
    r_to: withR && r ? r.to : null,
    r_parity: withR && r ? r.parity : null,
    coords,
    county_fips: county,
  });
  if (l && r && l.zip !== r.zip) return { segments: [row(l.zip, true, false), row(r.zip, false, true)] };
  return { segments: [row((l ?? r)!.zip, true, true)] };
}

/** The dbf's field names, as the `shapefile` package reads its first record (every field is there, empty ones null). */
async function dbfFields(dbf: string): Promise<string[] | undefined> {
  const source = await (await shapefilePackage()).openDbf(dbf, { encoding: 'utf-8' });
  const first = await source.read();
  await source.cancel();
  return first.done ? undefined : Object.keys(first.value ?? {}).map((f) => f.toUpperCase());
}

const utf8 = new TextDecoder('utf-8');

/**
 * The `shapefile` package decodes every dBASE field with the text-encoding polyfill, which made its
 * reading 13 times slower than Node's own TextDecoder (6,400 against 82,000 records a second): its
 * dbf reader's decoder is swapped for Node's, when it has the one it is known to have.
 */
function useNodeDecoder(dbf: unknown): void {
  if (typeof dbf === 'object' && dbf !== null && typeof Reflect.get(dbf, '_decode') === 'function')
    Reflect.set(dbf, '_decode', (bytes: Uint8Array) => utf8.decode(bytes));
}

/** The record count a dbf header gives (bytes 4-7), for the progress bar. */
function recordCount(dbf: string): number {
  const head = Buffer.alloc(8);
  const fd = fs.openSync(dbf, 'r');
  try {
    fs.readSync(fd, head, 0, 8, 0);
  } finally {
    fs.closeSync(fd);
  }
  return head.readUInt32LE(4);
}

export async function openTigerFile(file: string): Promise<StreetSource> {
  const name = path.basename(file);
  const match = TIGER_FILE.exec(name);
  if (!match)
    throw new CommandRefused(`${name} is not named as a TIGER/Line ADDRFEAT county file (tl_YYYY_SSCCC_addrfeat.zip).`);
  const county = match[2];
  const unzipped = await unzipEntries(file, ['.shp', '.dbf']);
  const shp = unzipped.files.get('.shp');
  const dbf = unzipped.files.get('.dbf');
  try {
    if (!shp || !dbf) throw new CommandRefused(`${name} holds no shapefile (a .shp and its .dbf).`);
    let fields: string[] | undefined;
    try {
      fields = await dbfFields(dbf);
    } catch {
      throw new CommandRefused(`${name} holds a .dbf that is not a dBASE table.`);
    }
    if (!fields) throw new CommandRefused(`${name} holds a shapefile without records.`);
    const missing = TIGER_FIELDS.filter((f) => !fields.includes(f));
    if (missing.length > 0)
      throw new CommandRefused(
        `${name} is not an ADDRFEAT file: its .dbf lacks the field${missing.length > 1 ? 's' : ''} ${missing.join(', ')}.`,
      );
  } catch (error) {
    await unzipped.remove();
    throw error;
  }
  const total = Math.max(1, recordCount(dbf));
  let done = 0;
  const keyOf = streetKeyMaker();
  async function* records(): AsyncGenerator<StreetRecord> {
    let source;
    try {
      source = await (await shapefilePackage()).open(shp!, dbf!, { encoding: 'utf-8' });
    } catch (error) {
      throw new CommandRefused(
        `${name} holds a .shp that is not a shapefile (${error instanceof Error ? error.message : String(error)}).`,
      );
    }
    useNodeDecoder(Reflect.get(source, '_dbf'));
    for (;;) {
      const next = await source.read();
      if (next.done) return;
      done++;
      const feature = next.value;
      yield segmentsOf(feature.properties ?? {}, feature.geometry, county, keyOf);
    }
  }
  return {
    kind: 'tiger_addrfeat',
    source: county,
    records: records(),
    progress: () => Math.min(1, done / total),
    close: unzipped.remove,
  };
}
