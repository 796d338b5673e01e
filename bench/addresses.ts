// Load on POST and GET /v1/addresses from this process against the engine in another, beside the
// ceiling of a bare Koa JSON handler. Usage: node --import tsx bench/addresses.ts [--pg]
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { load, printTable, startChild, type LoadResult } from './lib';

// Creates cycle through varied real addresses, so no cache or repeated input flatters the figure.
const PLACES: [string, string | null, string, string, string][] = [
  ['210 King Street', 'Suite 6100', 'San Francisco', 'CA', '94107'],
  ['1600 Pennsylvania Avenue NW', null, 'Washington', 'DC', '20500'],
  ['350 Fifth Avenue', 'Floor 34', 'New York', 'NY', '10118'],
  ['1 Telegraph Hill Blvd', null, 'San Francisco', 'california', '94133'],
  ['233 S. Wacker Dr.', 'ste 3530', 'Chicago', 'IL', '60606'],
  ['600 Montgomery St', null, 'San Francisco', 'CA', '94111-2702'],
  ['PO Box 720114', null, 'San Francisco', 'CA', '94172'],
  ['400 Broad St', null, 'Seattle', 'WA', '98109'],
  ['1 Infinite Loop', null, 'Cupertino', 'CA', '95014'],
  ['11 Wall Street', null, 'New York', 'new york', '10005'],
  ['100 Universal City Plaza', null, 'Universal City', 'CA', '91608'],
  ['2 15th St NW', null, 'Washington', 'DC', '20024'],
];
const BODIES = PLACES.map(([line1, line2, city, state, zip], i) =>
  JSON.stringify({
    name: `Customer ${i}`,
    address_line1: line1,
    address_line2: line2,
    address_city: city,
    address_state: state,
    address_zip: zip,
    metadata: { campaign: 'bench' },
  }),
);
const BODY = BODIES[0];
let turn = 0;
const nextBody = () => BODIES[turn++ % BODIES.length];

// Postcards to the same places from inline addresses, with HTML artwork and merge variables.
const SENDER = {
  name: 'Printpost',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
const POSTCARDS = BODIES.map((address, i) =>
  JSON.stringify({
    to: JSON.parse(address),
    from: SENDER,
    front: '<html><body><h1>Hello {{name}}</h1><p>Your code: {{code}}</p></body></html>',
    back: '<html><body><p>See you soon, {{name}}.</p></body></html>',
    merge_variables: { name: `Customer ${i}`, code: `SPRING-${i}` },
    use_type: 'marketing',
    metadata: { campaign: 'bench' },
  }),
);
let postcardTurn = 0;
const nextPostcard = () => POSTCARDS[postcardTurn++ % POSTCARDS.length];

async function engineRows(label: string, databaseUrl: string, env: Record<string, string> = {}): Promise<LoadResult[]> {
  const engine = await startChild('engine-server.ts', { DATABASE_URL: databaseUrl, ...env });
  try {
    const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
    const headers = {
      authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const created = await fetch(`${engine.url}/v1/addresses`, { method: 'POST', headers, body: BODY });
    const { id } = (await created.json()) as { id: string };
    return [
      await load(`${label} POST /v1/addresses`, engine, {
        url: `${engine.url}/v1/addresses`,
        method: 'POST',
        headers,
        body: BODY,
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: nextBody() }) }],
      }),
      await load(`${label} GET /v1/addresses/{id}`, engine, { url: `${engine.url}/v1/addresses/${id}`, headers }),
      await load(`${label} GET /v1/addresses?limit=10`, engine, {
        url: `${engine.url}/v1/addresses?limit=10`,
        headers,
      }),
      await load(`${label} POST /v1/postcards`, engine, {
        url: `${engine.url}/v1/postcards`,
        method: 'POST',
        headers,
        body: POSTCARDS[0],
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: nextPostcard() }) }],
      }),
    ];
  } finally {
    engine.process.kill();
  }
}

export async function benchAddresses(postgres: boolean): Promise<void> {
  const rows: LoadResult[] = [];
  for (const [name, shape] of [
    ['ceiling: bare Koa JSON', 'tiny'],
    ['ceiling: Koa, address-sized answer', 'address'],
  ] as const) {
    const ceiling = await startChild('ceiling-server.ts', { CEILING_SHAPE: shape });
    try {
      rows.push(await load(name, ceiling, { url: ceiling.url }));
    } finally {
      ceiling.process.kill();
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-'));
  rows.push(...(await engineRows('sqlite', path.join(dir, 'bench.sqlite'))));
  if (postgres && postgresUp()) {
    rows.push(...(await withPostgres((url) => engineRows('postgres', url))));
    // the cost of counting rate limits in the database (shared by every process) instead of in each one
    rows.push(
      ...(await withPostgres((url) => engineRows('postgres RATE_LIMITS=process', url, { RATE_LIMITS: 'process' }))),
    );
  } else if (postgres) process.stdout.write('!!! PostgreSQL is not reachable: its rows are skipped !!!\n');
  fs.rmSync(dir, { recursive: true, force: true });
  printTable(rows);
  const [tiny, sized] = rows;
  for (const row of rows.filter((r) => r.name.endsWith('POST /v1/postcards'))) {
    const address = rows.find((r) => r.name === row.name.replace('postcards', 'addresses'));
    if (address)
      process.stdout.write(
        `  ${row.name}: ${((row.rps / address.rps) * 100).toFixed(0)}% of the address create rate of the same run (aim: 50%)\n`,
      );
  }
  for (const row of rows.slice(2)) {
    process.stdout.write(
      `  ${row.name}: ${((row.rps / tiny.rps) * 100).toFixed(0)}% of the bare ceiling, ${((row.rps / sized.rps) * 100).toFixed(0)}% of the address-sized one\n`,
    );
  }
}

/** A throwaway database on the server of BENCH_PG_URL (default: the machine's `test` database). */
async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
  const { default: knex } = await import('knex');
  const adminUrl = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `pp_bench_${Date.now()}`;
  const admin = knex({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`create database ${name}`);
    return await run(adminUrl.replace(/\/[^/]*$/, `/${name}`));
  } finally {
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  }
}

/** Whether a PostgreSQL server answers (the PostgreSQL leg is skipped, loudly, when none does). */
export function postgresUp(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-t', '2'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

if (require.main === module) void benchAddresses(process.argv.includes('--pg'));
