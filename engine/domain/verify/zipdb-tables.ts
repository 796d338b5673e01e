// The ZIP database's resident form, read from the gzipped JSON file (format: scripts/build-zipdb.ts).
// Parsed whole with JSON.parse into Maps of one object per ZIP, it kept 23 MB of heap and left about
// 60 MB more RSS behind (the 3 MB text as a string and 42,000 row arrays, all alive until the end of
// the load). Here the rows are read in place (zipdb-rows.ts) into columns of typed arrays over one
// table of distinct strings, and the city index is a sorted array of keys with its ZIPs in one typed
// array: 2.5 MB of heap. Records are made again on each lookup.
import { gunzipSync } from 'node:zlib';
import { normalizeCity } from './city-key';
import { MalformedRows, RowReader, spans, StringTable } from './zipdb-rows';

export interface ZipdbStats {
  readonly zips: number;
  readonly loadMs: number;
  /** Size of the compressed file read. */
  readonly bytes: number;
}

export interface ZipdbSource {
  readonly name: string;
  readonly version: string;
  readonly license: string;
}

/** Column i of each array describes record i; strings are indexes into `names`. */
export interface ZipTables {
  /** Record index + 1 at each 5-digit ZIP's number; 0 where there is none. */
  readonly byZip: Int32Array;
  readonly distinctZips: number;
  readonly zip: Int32Array;
  readonly state: Uint32Array;
  readonly type: Uint32Array;
  readonly countyFips: Uint32Array;
  readonly county: Uint32Array;
  /** NaN where the file has null. */
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  /** Record i's cities, preferred first: cityName[cityStart[i]] up to cityName[cityStart[i + 1]]. */
  readonly cityStart: Uint32Array;
  readonly cityName: Uint32Array;
  /** Every distinct string of the file's rows, once. */
  readonly names: readonly string[];
  /** Sorted `${cityKey}|${state}`, one per city name and state. */
  readonly cityKeys: readonly string[];
  /** Per key, its city as first spelled in the file. */
  readonly keyName: Uint32Array;
  /** Per key k, its ZIPs (file order) are keyZips[keyZipStart[k]] up to keyZips[keyZipStart[k + 1]]. */
  readonly keyZipStart: Uint32Array;
  readonly keyZips: Int32Array;
  readonly sources: ZipdbSource[];
}

/** Reads a printpost-zipdb v1 file (gzipped); throws naming `file` when it is not one. */
export function readZipTables(gzipped: Buffer, file: string): ZipTables {
  const text = gunzipSync(gzipped);
  const found = spans(text);
  const headerText =
    found.to > found.from
      ? `${text.toString('utf8', 0, found.from)}[]${text.toString('utf8', found.to + 1)}`
      : text.toString('utf8');
  const header = (JSON.parse(headerText) as { header?: { format?: string; formatVersion?: number } }).header;
  const notOne = (why = '') => new Error(`zipdb: ${file} is not a printpost-zipdb v1 file${why}`);
  if (header?.format !== 'printpost-zipdb' || header.formatVersion !== 1 || found.from < 0 || found.to < 0)
    throw notOne();
  try {
    return tablesOf(text, found.rows, (header as { sources: ZipdbSource[] }).sources);
  } catch (error) {
    if (error instanceof MalformedRows) throw notOne(` (row ${error.row}: ${error.message})`);
    throw error;
  }
}

/** Rows: [zip, state, type, countyFips, county, latitude, longitude, preferredCity, ...otherCities]. */
function tablesOf(text: Buffer, rows: number[], sources: ZipdbSource[]): ZipTables {
  const count = rows.length;
  const t = {
    byZip: new Int32Array(100_000),
    distinctZips: 0,
    zip: new Int32Array(count),
    state: new Uint32Array(count),
    type: new Uint32Array(count),
    countyFips: new Uint32Array(count),
    county: new Uint32Array(count),
    latitude: new Float64Array(count),
    longitude: new Float64Array(count),
    cityStart: new Uint32Array(count + 1),
    sources,
  };
  const strings = new StringTable(text);
  const row = new RowReader(text, strings);
  const cities: number[] = [];
  const index = new CityIndex(strings.strings);
  for (let i = 0; i < count; i++) {
    row.begin(rows[i], i);
    const zip = row.fiveDigits();
    if (zip < 0) throw new MalformedRows('the ZIP is not five digits', i);
    if (t.byZip[zip] === 0) t.distinctZips++;
    t.byZip[zip] = i + 1;
    t.zip[i] = zip;
    row.next();
    t.state[i] = row.string();
    row.next();
    t.type[i] = row.string();
    row.next();
    t.countyFips[i] = row.string();
    row.next();
    t.county[i] = row.string();
    row.next();
    t.latitude[i] = row.number();
    row.next();
    t.longitude[i] = row.number();
    while (row.more()) {
      const city = row.string();
      cities.push(city);
      index.add(city, t.state[i], zip);
    }
    t.cityStart[i + 1] = cities.length;
  }
  return { ...t, names: strings.strings, cityName: Uint32Array.from(cities), ...index.sorted() };
}

/** The (city, state) -> ZIPs index as it is built, then sorted into the tables' form. */
class CityIndex {
  /** per index key, in order of first appearance: `${cityKey}|${state}`, its city's first spelling */
  private readonly keys: string[] = [];
  private readonly names: number[] = [];
  /** the key's state, and the next key of the same city key (-1: none), searched for a city's state */
  private readonly states: number[] = [];
  private readonly nextOfCity: number[] = [];
  /** the last ZIP listed per key: a ZIP whose names share a key is listed once */
  private readonly last: number[] = [];
  /** (key, ZIP), in file order */
  private readonly pairs: number[] = [];
  /** per string number, its city key's number (-1: not a city yet) */
  private readonly cityKeyOf: number[] = [];
  private readonly cityKeyNumbers = new Map<string, number>();
  private readonly cityKeys: string[] = [];
  /** per city key, its first index key (-1: none yet) */
  private readonly firstOfCity: number[] = [];

  constructor(private readonly strings: readonly string[]) {}

  add(name: number, state: number, zip: number): void {
    while (this.cityKeyOf.length <= name) this.cityKeyOf.push(-1);
    let ck = this.cityKeyOf[name];
    if (ck < 0) {
      const key = normalizeCity(this.strings[name]);
      ck = this.cityKeyNumbers.get(key) ?? -1;
      if (ck < 0) {
        ck = this.cityKeys.length;
        this.cityKeyNumbers.set(key, ck);
        this.cityKeys.push(key);
        this.firstOfCity.push(-1);
      }
      this.cityKeyOf[name] = ck;
    }
    let k = this.firstOfCity[ck];
    while (k >= 0 && this.states[k] !== state) k = this.nextOfCity[k];
    if (k < 0) {
      k = this.keys.length;
      this.keys.push(`${this.cityKeys[ck]}|${this.strings[state]}`);
      this.names.push(name);
      this.states.push(state);
      this.nextOfCity.push(this.firstOfCity[ck]);
      this.firstOfCity[ck] = k;
      this.last.push(-1);
    }
    if (this.last[k] !== zip) {
      this.last[k] = zip;
      this.pairs.push(k, zip);
    }
  }

  sorted(): Pick<ZipTables, 'cityKeys' | 'keyName' | 'keyZipStart' | 'keyZips'> {
    const keys = this.keys;
    const order = keys.map((_, k) => k).sort((a, b) => (keys[a] < keys[b] ? -1 : 1));
    const rank = new Uint32Array(keys.length);
    order.forEach((k, r) => (rank[k] = r));
    const keyZipStart = new Uint32Array(keys.length + 1);
    for (let p = 0; p < this.pairs.length; p += 2) keyZipStart[rank[this.pairs[p]] + 1]++;
    for (let r = 0; r < keys.length; r++) keyZipStart[r + 1] += keyZipStart[r];
    const keyZips = new Int32Array(this.pairs.length / 2);
    const next = keyZipStart.slice(0, keys.length);
    for (let p = 0; p < this.pairs.length; p += 2) keyZips[next[rank[this.pairs[p]]]++] = this.pairs[p + 1];
    return {
      cityKeys: order.map((k) => keys[k]),
      keyName: Uint32Array.from(order, (k) => this.names[k]),
      keyZipStart,
      keyZips,
    };
  }
}
