// Load on POST and GET /v1/addresses from this process against the engine in another, beside the
// ceiling of a bare Koa JSON handler. Usage: node --import tsx bench/addresses.ts [--pg]
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { load, printTable, startChild, type Child, type LoadResult } from './lib';
import { ADDRESS_BODIES, POSTCARD_BODIES } from './bodies';

const BODY = ADDRESS_BODIES[0];
/** more than the 256 pages the list cache keeps */
const WALKED_PAGES = 1000;
let turn = 0;
const nextBody = () => ADDRESS_BODIES[turn++ % ADDRESS_BODIES.length];
let postcardTurn = 0;
const nextPostcard = () => POSTCARD_BODIES[postcardTurn++ % POSTCARD_BODIES.length];

/** POSTs of varied address bodies, as a create load sends them. */
const createLoad = () => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json' },
  body: BODY,
  requests: [{ method: 'POST' as const, setupRequest: (request: object) => ({ ...request, body: nextBody() }) }],
});

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
      // the same page size, every request another page: none is answered from the list cache
      await walkLoad(`${label} GET ?limit=10, other pages`, engine, headers),
      await load(`${label} POST /v1/postcards`, engine, {
        url: `${engine.url}/v1/postcards`,
        method: 'POST',
        headers,
        body: POSTCARD_BODIES[0],
        requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: nextPostcard() }) }],
      }),
    ];
  } finally {
    engine.process.kill();
  }
}

/** Pages of ten, each asked in turn: more of them than the list cache keeps, so every answer is read. */
async function walkLoad(name: string, engine: Child, headers: Record<string, string>): Promise<LoadResult> {
  const pages: string[] = [];
  let next: string | null = `${engine.url}/v1/addresses?limit=10`;
  while (next && pages.length < WALKED_PAGES) {
    pages.push(next.slice(engine.url.length));
    next = ((await (await fetch(next, { headers })).json()) as { next_url: string | null }).next_url;
  }
  let page = 0;
  return load(name, engine, {
    url: `${engine.url}${pages[0]}`,
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, path: pages[page++ % pages.length] }) }],
  });
}

export async function benchAddresses(postgres: boolean): Promise<void> {
  const rows: LoadResult[] = [];
  for (const [name, shape] of [
    ['ceiling: bare Koa JSON', 'tiny'],
    ['ceiling: Koa, address-sized answer', 'address'],
    ['ceiling: Koa + SQLite insert (durable)', 'durable'],
    ['ceiling: Koa, list-page answer', 'list'],
    ['ceiling: Koa + US verify + the engine rows', 'rows'],
  ] as const) {
    const ceiling = await startChild('ceiling-server.ts', { CEILING_SHAPE: shape });
    try {
      const posting = shape === 'durable' || shape === 'rows' ? createLoad() : {};
      rows.push(await load(name, ceiling, { url: ceiling.url, ...posting }));
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
  const [tiny, sized, durable, page, sameWork] = rows;
  const CEILINGS = 5;
  const ratio = (row: LoadResult | undefined, of: LoadResult, aim: number, what: string) => {
    if (row)
      process.stdout.write(
        `  ${row.name}: ${(row.rps / of.rps).toFixed(2)}x ${what} of the same run (aim: ${aim.toFixed(1)}x)\n`,
      );
  };
  for (const label of ['sqlite', 'postgres']) {
    ratio(
      rows.find((r) => r.name === `${label} POST /v1/addresses`),
      durable,
      0.8,
      'the durable ceiling (Koa + one SQLite insert)',
    );
    ratio(
      rows.find((r) => r.name === `${label} GET /v1/addresses?limit=10`),
      tiny,
      0.5,
      'the bare Koa handler',
    );
    ratio(
      rows.find((r) => r.name === `${label} GET /v1/addresses?limit=10`),
      page,
      0.5,
      'a bare Koa handler answering the same page from memory',
    );
    ratio(
      rows.find((r) => r.name === `${label} GET ?limit=10, other pages`),
      page,
      0.5,
      'a bare Koa handler answering the same page from memory (every page read)',
    );
    ratio(
      rows.find((r) => r.name === `${label} POST /v1/addresses`),
      sameWork,
      0.8,
      'a Koa handler doing the same verify and rows without the API around them',
    );
    const create = rows.find((r) => r.name === `${label} POST /v1/addresses`);
    if (create)
      process.stdout.write(
        `  ${create.name}: ${create.cpuUs} µs of engine CPU a create against the durable ceiling's ${durable.cpuUs} µs (${(durable.cpuUs / create.cpuUs).toFixed(2)}x)\n`,
      );
    ratio(
      rows.find((r) => r.name === `${label} POST /v1/postcards`),
      rows.find((r) => r.name === `${label} POST /v1/addresses`)!,
      0.5,
      'the address create rate',
    );
  }
  for (const row of rows.slice(CEILINGS))
    process.stdout.write(
      `  ${row.name}: ${((row.rps / tiny.rps) * 100).toFixed(0)}% of the bare ceiling, ${((row.rps / sized.rps) * 100).toFixed(0)}% of the address-sized one\n`,
    );
  const peak = Math.max(...rows.slice(CEILINGS).map((r) => r.rssMb));
  process.stdout.write(`  engine RSS peak (after each load, the process alone): ${peak} MB (aim: <= 200 MB)\n`);
}

/** A throwaway database on the server of BENCH_PG_URL (default: the machine's `test` database). */
export async function withPostgres<T>(run: (url: string) => Promise<T>): Promise<T> {
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
