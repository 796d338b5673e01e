// Load on POST and GET /v1/addresses from this process against the engine in another, beside the
// ceiling of a bare Koa JSON handler. Usage: node --import tsx bench/addresses.ts [--pg]
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { load, printTable, startChild, type LoadResult } from './lib';

const BODY = JSON.stringify({ name: 'Harry Zhang', address_line1: '210 King Street', address_line2: 'Suite 6100', address_city: 'San Francisco', address_state: 'CA', address_zip: '94107', metadata: { campaign: 'bench' } });

async function engineRows(label: string, databaseUrl: string): Promise<LoadResult[]> {
  const engine = await startChild('engine-server.ts', { DATABASE_URL: databaseUrl });
  try {
    const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
    const headers = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`, 'content-type': 'application/json' };
    const created = await fetch(`${engine.url}/v1/addresses`, { method: 'POST', headers, body: BODY });
    const { id } = (await created.json()) as { id: string };
    return [
      await load(`${label} POST /v1/addresses`, engine, { url: `${engine.url}/v1/addresses`, method: 'POST', headers, body: BODY }),
      await load(`${label} GET /v1/addresses/{id}`, engine, { url: `${engine.url}/v1/addresses/${id}`, headers }),
      await load(`${label} GET /v1/addresses?limit=10`, engine, { url: `${engine.url}/v1/addresses?limit=10`, headers }),
    ];
  } finally {
    engine.process.kill();
  }
}

export async function benchAddresses(postgres: boolean): Promise<void> {
  const ceiling = await startChild('ceiling-server.ts');
  const rows: LoadResult[] = [];
  try {
    rows.push(await load('ceiling: bare Koa JSON', ceiling, { url: ceiling.url }));
  } finally {
    ceiling.process.kill();
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-bench-'));
  rows.push(...(await engineRows('sqlite', path.join(dir, 'bench.sqlite'))));
  if (postgres && postgresUp()) rows.push(...(await withPostgres((url) => engineRows('postgres', url))));
  else if (postgres) process.stdout.write('!!! PostgreSQL is not reachable: its rows are skipped !!!\n');
  fs.rmSync(dir, { recursive: true, force: true });
  printTable(rows);
  const top = rows[0].rps;
  for (const row of rows.slice(1)) process.stdout.write(`  ${row.name}: ${((row.rps / top) * 100).toFixed(0)}% of the ceiling\n`);
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
