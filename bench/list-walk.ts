// A list walk over 1,000,000 addresses: the 10,000th page (limit 100) should cost what the first does.
// Seeds rows straight into the object table (as the engine stores them), then walks over HTTP.
// Usage: node --import tsx bench/list-walk.ts [rows]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '../engine/store/connection';
import { buildAddress } from '../engine/domain/addresses/address-book';
import { load, printTable, rssMb, startChild } from './lib';

async function fill(file: string, accountId: string, rows: number): Promise<number> {
  const db = connect(file);
  const started = Date.now();
  const template = buildAddress(
    {
      name: 'Harry Zhang',
      address_line1: '210 King St',
      address_city: 'San Francisco',
      address_state: 'CA',
      address_zip: '94107',
    },
    'test',
  );
  const base = Date.parse('2024-01-01T00:00:00Z');
  const batch = 5000;
  for (let start = 0; start < rows; start += batch) {
    const chunk = [];
    for (let i = start; i < Math.min(rows, start + batch); i++) {
      const id = `adr_${i.toString(16).padStart(16, '0')}`;
      const date = new Date(base + i * 1000).toISOString();
      chunk.push({
        id,
        account_id: accountId,
        mode: 'test',
        kind: 'addresses',
        date_created: date,
        date_modified: date,
        deleted: false,
        body: JSON.stringify({ id, ...template, date_created: date, date_modified: date }),
      });
    }
    await db.knex.batchInsert('objects', chunk, 500);
  }
  await db.knex.destroy();
  return Date.now() - started;
}

export async function benchListWalk(rows: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-walk-'));
  const file = path.join(dir, 'walk.sqlite');
  // The first start creates the account the rows belong to.
  let engine = await startChild('engine-server.ts', { DATABASE_URL: file });
  engine.process.kill();
  const db = connect(file);
  const account = (await db.knex('accounts').first('id')) as { id: string };
  await db.knex.destroy();
  const seedMs = await fill(file, account.id, rows);
  process.stdout.write(`seeded ${rows} addresses in ${(seedMs / 1000).toFixed(1)} s\n`);

  engine = await startChild('engine-server.ts', { DATABASE_URL: file });
  const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
  const headers = { authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` };
  try {
    let next: string | null = `${engine.url}/v1/addresses?limit=100`;
    let pages = 0;
    let deepUrl = '';
    const started = Date.now();
    while (next) {
      const r = await fetch(next, { headers });
      const body = (await r.json()) as { next_url: string | null; count: number };
      pages += 1;
      if (pages === Math.floor(rows / 100)) deepUrl = next;
      next = body.next_url;
    }
    const walkMs = Date.now() - started;
    process.stdout.write(
      `walked ${pages} pages of 100 in ${(walkMs / 1000).toFixed(1)} s (${(walkMs / pages).toFixed(2)} ms a page), engine RSS ${rssMb(engine.process.pid!)} MB\n`,
    );
    const first = await load('first page (limit 100)', engine, {
      url: `${engine.url}/v1/addresses?limit=100`,
      headers,
      duration: 5,
    });
    const deep = await load(`page ${Math.floor(rows / 100)} (limit 100)`, engine, {
      url: deepUrl,
      headers,
      duration: 5,
    });
    printTable([first, deep]);
    process.stdout.write(
      `  page ${Math.floor(rows / 100)} vs the first: mean latency ${(deep.mean / first.mean).toFixed(2)}x, req/s ${(deep.rps / first.rps).toFixed(2)}x (aim: within 20%)\n`,
    );
  } finally {
    engine.process.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) void benchListWalk(Number(process.argv[2] ?? 1_000_000));
