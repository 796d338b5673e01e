// Street data at state size (issue 46): generates TIGER/Line ADDRFEAT county zips with a library
// (test/helpers/streets.ts: @mapbox/shp-write and fflate), imports them through `printpost streets
// import`, and prints the import's rows per second, the database's bytes per million segments, and
// live verifications per second over HTTP, in ZIPs with street data and in ZIPs without, in one run.
// Usage: node --import tsx bench/streets.ts   (STREETS_BENCH_SEGMENTS, default 1,000,000, in counties of 5,000;
// STREETS_BENCH_DB=postgres for a fresh PostgreSQL database at PG_TEST_URL's server instead of SQLite)
import { spawnSync } from 'node:child_process';
import knex from 'knex';
import { freshDatabase } from '../test/helpers/engine';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lookupZip } from '../engine/domain/verify/zipdb';
import { tigerZip, type Segment } from '../test/helpers/streets';
import { load, printTable, startChild } from './lib';

const SEGMENTS = Number(process.env.STREETS_BENCH_SEGMENTS ?? 1_000_000);
/** Segments a county file: shp-write's time grows with the square of a file's lines, so a state is many counties (Texas has 254). */
const PER_COUNTY = 5_000;
const COUNTIES = Math.ceil(SEGMENTS / PER_COUNTY);
const STREETS_PER_ZIP = 20;
const SEGMENTS_PER_STREET = 50;
const SUFFIXES = ['ST', 'AVE', 'RD', 'DR', 'LN', 'CT', 'WAY', 'BLVD', 'PL', 'TER'];
const SYLLABLES = ['BAR', 'KEL', 'MOR', 'TAN', 'VIL', 'DEN', 'LOR', 'PAS', 'RIN', 'SOL', 'CAM', 'HEN'];

/** Real ZIPs (the verifier places the last line first), enough for the segments asked. */
function realZips(count: number): string[] {
  const zips: string[] = [];
  for (let z = 90001; z < 99999 && zips.length < count; z++) {
    const record = lookupZip(String(z));
    if (record && record.type === 'standard') zips.push(record.zip);
  }
  if (zips.length < count) throw new Error(`only ${zips.length} ZIPs for ${count}`);
  return zips;
}

const streetName = (i: number) =>
  `${SYLLABLES[i % 12]}${SYLLABLES[Math.floor(i / 12) % 12].toLowerCase()} ${SUFFIXES[Math.floor(i / 144) % 10]}`;

async function generate(dir: string): Promise<{ files: string[]; zips: string[] }> {
  const perZip = STREETS_PER_ZIP * SEGMENTS_PER_STREET;
  const zips = realZips(Math.ceil(SEGMENTS / perZip));
  const files: string[] = [];
  const perCounty = Math.ceil(zips.length / COUNTIES);
  for (let c = 0; c < COUNTIES; c++) {
    const segments: Segment[] = [];
    for (const [zi, zip] of zips.slice(c * perCounty, (c + 1) * perCounty).entries()) {
      for (let s = 0; s < STREETS_PER_ZIP; s++) {
        const name = streetName(s + zi);
        const lat = 33 + zi * 0.001;
        for (let k = 0; k < SEGMENTS_PER_STREET && segments.length < PER_COUNTY; k++) {
          const base = k * 100;
          const lon = -118 + s * 0.01 + k * 0.001;
          segments.push({
            name,
            left: [String(base + 1), String(base + 99), zip, 'O'],
            right: [String(base), String(base + 98), zip, 'E'],
            line: [
              [lon, lat],
              [lon + 0.0005, lat + 0.0001],
              [lon + 0.001, lat],
            ],
          });
        }
      }
    }
    files.push(
      await tigerZip(
        dir,
        `${String(1 + Math.floor(c / 400)).padStart(2, '0')}${String((c % 400) * 2 + 1).padStart(3, '0')}`,
        segments,
      ),
    );
  }
  return { files, zips };
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-streets-'));
  const postgres = process.env.STREETS_BENCH_DB === 'postgres' ? await freshDatabase('postgres') : undefined;
  const database = postgres?.url ?? path.join(dir, 'bench.sqlite');
  try {
    let started = performance.now();
    const { files, zips } = await generate(dir);
    const zipBytes = files.reduce((n, f) => n + fs.statSync(f).size, 0);
    process.stdout.write(
      `generated ${SEGMENTS.toLocaleString('en-US')} segments in ${COUNTIES} county zips (${mb(zipBytes)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
    );
    const bin = path.join(__dirname, '..', 'bin', 'printpost');
    started = performance.now();
    const imported = spawnSync(bin, ['streets', 'import', ...files], {
      env: { ...process.env, DATABASE_URL: database, LOG_LEVEL: 'silent' },
      encoding: 'utf8',
    });
    const seconds = (performance.now() - started) / 1000;
    if (imported.status !== 0) throw new Error(`import failed: ${imported.stderr}`);
    const lines = imported.stdout.trim().split('\n');
    process.stdout.write(`${lines.slice(0, 2).join('\n')}\n...\n${lines[lines.length - 1]}\n`);
    const dbBytes = postgres
      ? await postgresBytes(database)
      : ['', '-wal'].reduce((n, s) => n + (fs.existsSync(database + s) ? fs.statSync(database + s).size : 0), 0);
    process.stdout.write(
      `import: ${seconds.toFixed(1)} s for ${SEGMENTS.toLocaleString('en-US')} segments (${Math.round(SEGMENTS / seconds).toLocaleString('en-US')} rows/s, the command's start included)\n` +
        `database: ${mb(dbBytes)} MB, ${mb((dbBytes / SEGMENTS) * 1_000_000)} MB per million segments (${postgres ? 'PostgreSQL, tables and indexes' : 'SQLite'})\n`,
    );

    const child = await startChild('verify-server.ts', { DATABASE_URL: database });
    try {
      const key = child.lines.find((l) => l.startsWith('LIVE '))!.slice(5);
      const headers = {
        authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        'content-type': 'application/json',
      };
      const url = `${child.url}/v1/us_verifications`;
      const zip = zips[Math.floor(zips.length / 2)];
      const withStreets = JSON.stringify({ address: `151 ${streetName(3)}, ${zip}` });
      const check = (await (await fetch(url, { method: 'POST', headers, body: withStreets })).json()) as {
        deliverability: string;
        street_data: string;
        primary_line: string;
      };
      process.stdout.write(`with streets: ${check.deliverability} by ${check.street_data} (${check.primary_line})\n`);
      // A ZIP of another state: no street data there, the last line alone answers.
      const without = JSON.stringify({ address: '151 Harrison St, 10001' });
      for (let i = 0; i < 200; i++) {
        await fetch(url, { method: 'POST', headers, body: withStreets });
        await fetch(url, { method: 'POST', headers, body: without });
      }
      const rows = [
        await load('verify, ZIP without street data', child, { url, method: 'POST', headers, body: without }),
        await load('verify, ZIP with street data', child, { url, method: 'POST', headers, body: withStreets }),
      ];
      printTable(rows);
      process.stdout.write(`with streets / without: ${(rows[1].rps / rows[0].rps).toFixed(2)}x\n`);
    } finally {
      child.process.kill();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

/** The street tables' bytes with their indexes (the measure, not the engine: SQL here is the bench's own). */
async function postgresBytes(url: string): Promise<number> {
  const db = knex({ client: 'pg', connection: url });
  try {
    const { rows } = await db.raw<{ rows: { bytes: string }[] }>(
      "select sum(pg_total_relation_size(t::regclass)) as bytes from unnest(array['street_segments', 'street_points', 'street_names', 'street_loads']) as t",
    );
    return Number(rows[0].bytes);
  } finally {
    await db.destroy();
  }
}

void main();
