// Street data fixtures written in the real formats by libraries, not by the engine: TIGER/Line ADDRFEAT
// county zips (the lines by @mapbox/shp-write, the dBASE table by dbffile with the field widths TIGER
// uses, zipped with fflate) and OpenAddresses CSVs (csv-stringify).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { stringify } from 'csv-stringify/sync';
import { DBFFile, type FieldDescriptor } from 'dbffile';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the package ships no types
const shpwrite = require('@mapbox/shp-write') as {
  write(
    rows: Record<string, string>[],
    type: 'POLYLINE',
    geometries: number[][][][],
    done: (error: unknown, files: { shp: DataView; shx: DataView; dbf: DataView; prj: string }) => void,
  ): void;
};

export interface Segment {
  name: string;
  left?: [from: string, to: string, zip: string, parity?: 'O' | 'E' | 'B'];
  right?: [from: string, to: string, zip: string, parity?: 'O' | 'E' | 'B'];
  /** lon,lat vertices in the ranges' direction */
  line: [number, number][];
}

export const TIGER_FIELDS = ['FULLNAME', 'LFROMHN', 'LTOHN', 'RFROMHN', 'RTOHN', 'ZIPL', 'ZIPR', 'PARITYL', 'PARITYR'];

const bytes = (v: DataView) => new Uint8Array(v.buffer, v.byteOffset, v.byteLength);

/** The rows as the ADDRFEAT .dbf holds them (`drop` leaves fields out, to make a bad file). */
function addrfeatRows(segments: Segment[], drop: string[]): Record<string, string>[] {
  return segments.map((s) => {
    const [lf = '', lt = '', zl = '', pl = ''] = s.left ?? [];
    const [rf = '', rt = '', zr = '', pr = ''] = s.right ?? [];
    const row: Record<string, string> = {
      TLID: '1',
      FULLNAME: s.name,
      LFROMHN: lf,
      LTOHN: lt,
      RFROMHN: rf,
      RTOHN: rt,
      ZIPL: zl,
      ZIPR: zr,
      PARITYL: pl,
      PARITYR: pr,
    };
    for (const f of drop) delete row[f];
    return row;
  });
}

/** ADDRFEAT's fields as the Census Bureau declares them (dbffile writes them at these widths). */
const ADDRFEAT_FIELDS: FieldDescriptor[] = [
  { name: 'TLID', type: 'N', size: 10, decimalPlaces: 0 },
  { name: 'FULLNAME', type: 'C', size: 100 },
  { name: 'LFROMHN', type: 'C', size: 12 },
  { name: 'LTOHN', type: 'C', size: 12 },
  { name: 'RFROMHN', type: 'C', size: 12 },
  { name: 'RTOHN', type: 'C', size: 12 },
  { name: 'ZIPL', type: 'C', size: 5 },
  { name: 'ZIPR', type: 'C', size: 5 },
  { name: 'PARITYL', type: 'C', size: 1 },
  { name: 'PARITYR', type: 'C', size: 1 },
];

/** The shapefile's .shp, .shx and .dbf of these segments (`drop` leaves fields out, to make a bad file). */
export async function addrfeatShapefile(segments: Segment[], drop: string[] = []): Promise<Record<string, Uint8Array>> {
  let out: Record<string, Uint8Array> | undefined;
  // shp-write's own dBASE writer pads every text field to 254 bytes: only its lines are used
  shpwrite.write(
    [],
    'POLYLINE',
    segments.map((s) => [s.line]),
    (error, files) => {
      if (error) throw error;
      out = { shp: bytes(files.shp), shx: bytes(files.shx), prj: Buffer.from(files.prj) };
    },
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-dbf-'));
  try {
    const file = path.join(dir, 'addrfeat.dbf');
    const table = await DBFFile.create(
      file,
      ADDRFEAT_FIELDS.filter((f) => !drop.includes(f.name)),
    );
    const rows = addrfeatRows(segments, drop).map((r) => ({ ...r, TLID: Number(r.TLID) }));
    for (let i = 0; i < rows.length; i += 10_000) await table.appendRecords(rows.slice(i, i + 10_000));
    return { ...out!, dbf: fs.readFileSync(file) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** tl_2024_<county>_addrfeat.zip in `dir`, as the Census Bureau publishes it (the shapefile's files at its root). */
export async function tigerZip(dir: string, county: string, segments: Segment[], drop: string[] = []): Promise<string> {
  const base = `tl_2024_${county}_addrfeat`;
  const files = await addrfeatShapefile(segments, drop);
  const zipped = zipSync({
    [`${base}.shp`]: files.shp,
    [`${base}.shx`]: files.shx,
    [`${base}.dbf`]: files.dbf,
    [`${base}.prj`]: files.prj,
  });
  const file = path.join(dir, `${base}.zip`);
  fs.writeFileSync(file, zipped);
  return file;
}

export interface AddressPoint {
  lon: number;
  lat: number;
  number: string;
  street: string;
  unit?: string;
  postcode: string;
}

export const OPENADDRESSES_HEADER = [
  'LON',
  'LAT',
  'NUMBER',
  'STREET',
  'UNIT',
  'CITY',
  'DISTRICT',
  'REGION',
  'POSTCODE',
  'ID',
  'HASH',
];

/** An OpenAddresses CSV named `name` in `dir`. */
export function openAddressesCsv(
  dir: string,
  name: string,
  points: AddressPoint[],
  header = OPENADDRESSES_HEADER,
): string {
  const rows = points.map((p, i) => {
    const all: Record<string, string> = {
      LON: String(p.lon),
      LAT: String(p.lat),
      NUMBER: p.number,
      STREET: p.street,
      UNIT: p.unit ?? '',
      CITY: 'SAN FRANCISCO',
      DISTRICT: '',
      REGION: 'CA',
      POSTCODE: p.postcode,
      ID: String(i + 1),
      HASH: `h${i}`,
    };
    return header.map((h) => all[h] ?? '');
  });
  const file = path.join(dir, name);
  fs.writeFileSync(file, stringify([header, ...rows]));
  return file;
}

/** The leading columns of the National Address Database's schema, as its text export writes them. */
export const NAD_HEADER = [
  'OID_',
  'AddNum_Pre',
  'Add_Number',
  'AddNum_Suf',
  'AddNo_Full',
  'St_PreMod',
  'St_PreDir',
  'St_PreTyp',
  'St_PreSep',
  'St_Name',
  'St_PosTyp',
  'St_PosDir',
  'St_PosMod',
  'StNam_Full',
  'Building',
  'Floor',
  'Unit',
  'Room',
  'Seat',
  'Addtl_Loc',
  'SubAddress',
  'LandmkName',
  'County',
  'Inc_Muni',
  'Post_City',
  'Census_Plc',
  'Uninc_Comm',
  'Nbrhd_Comm',
  'NatAmArea',
  'NatAmSub',
  'Urbnztn_PR',
  'PlaceOther',
  'State',
  'Zip_Code',
  'Plus_4',
  'UUID',
  'AddAuth',
  'AddrRefSys',
  'Longitude',
  'Latitude',
  'NatGrid',
  'Elevation',
  'Placement',
  'AddrPoint',
];

/** A National Address Database text export (CSV with a byte-order mark) named `name` in `dir`. */
export function nadTxt(dir: string, name: string, points: AddressPoint[]): string {
  const rows = points.map((p, i) => {
    const all: Record<string, string> = {
      OID_: String(i + 1),
      Add_Number: p.number,
      AddNo_Full: p.number,
      StNam_Full: p.street,
      Unit: p.unit ?? '',
      County: 'San Francisco',
      Post_City: 'San Francisco',
      State: 'CA',
      Zip_Code: p.postcode,
      UUID: `{0000000${i}-0000-0000-0000-000000000000}`,
      Longitude: String(p.lon),
      Latitude: String(p.lat),
      Placement: 'Structure - Rooftop',
    };
    return NAD_HEADER.map((h) => all[h] ?? '');
  });
  const file = path.join(dir, name);
  fs.writeFileSync(file, stringify([NAD_HEADER, ...rows], { bom: true }));
  return file;
}
