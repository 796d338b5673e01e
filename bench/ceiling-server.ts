// The ceiling: a bare Koa handler answering JSON, on the same machine, as the engine would.
// CEILING_SHAPE=address answers with an address object and the engine's response headers, so the
// cost of the response itself (size, headers, the socket write) is in the ceiling too.
// CEILING_SHAPE=list answers a list page of ten addresses the same way.
// CEILING_SHAPE=durable is the least a persisting Koa API pays for a create: it reads the JSON body and
// inserts it as one row into SQLite (WAL, synchronous=NORMAL, as the engine runs it) before it answers.
// CEILING_SHAPE=rows is the least an address create pays for the engine's own rules and rows: the body
// read, the address standardized by the engine's US verifier, and its object, metadata and event rows
// (the engine's row builders, its migrated schema and indexes) committed, a turn's creates together,
// before it answers; no key, rate limit, idempotency, validation or answer shaping.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { addresses } from '../engine/catalog/addresses';
import { connect } from '../engine/store/connection';
import { migrateLatest } from '../engine/store/migrate';
import { objectRow, type ApiObject } from '../engine/store/columns';
import { eventRow } from '../engine/store/events';
import { newId } from '../engine/base/ids';
import { standardizeUsRecord, type UsAddressRecord } from '../engine/domain/verify/strictness';

const shaped = process.env.CEILING_SHAPE === 'address';
const HEADERS = {
  'X-Rate-Limit-Limit': '150',
  'X-Rate-Limit-Remaining': '149',
  'X-Rate-Limit-Reset': '1763830000',
  'ratelimit-limit': '150',
  'ratelimit-remaining': '149',
  'ratelimit-reset': '1763830000',
  'Access-Control-Allow-Origin': '*',
};
const SAMPLE = JSON.stringify(addresses.sample);
// CEILING_SHAPE=list answers what GET /v1/addresses?limit=10 answers: a page of ten addresses
const PAGE = JSON.stringify({
  object: 'list',
  data: Array.from({ length: 10 }, (_, i) => ({ ...addresses.sample, id: `adr_${String(i).padStart(16, '0')}` })),
  next_url: '/v1/addresses?limit=10&after=adr_0000000000000009',
  previous_url: null,
  count: 10,
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-ceiling-'));
const file = path.join(dir, 'ceiling.sqlite');
let db: Database.Database;
let insert: Database.Statement;

/** The durable ceiling's one table, or the engine's migrated schema for the rows ceiling. */
async function openDatabase(): Promise<void> {
  if (process.env.CEILING_SHAPE === 'rows') {
    const engineDb = connect(file);
    await migrateLatest(engineDb.knex);
    await engineDb.knex.destroy();
  }
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if (process.env.CEILING_SHAPE === 'rows') return;
  db.exec('create table objects (id text primary key, date_created text not null, body text not null)');
  insert = db.prepare('insert into objects (id, date_created, body) values (?, ?, ?)');
}

const SCOPE = { accountId: 'acc_ceiling', mode: 'test' } as const;
const statements = new Map<string, Database.Statement>();
function insertRow(table: string, row: Record<string, unknown>): void {
  const columns = Object.keys(row);
  const key = `${table}(${columns.join(',')})`;
  let statement = statements.get(key);
  if (!statement) {
    statement = db.prepare(
      `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
    );
    statements.set(key, statement);
  }
  statement.run(...columns.map((c) => (typeof row[c] === 'boolean' ? Number(row[c]) : row[c])));
}

type Row = [table: string, row: Record<string, unknown>];
let waiting: { rows: Row[]; done: () => void }[] = [];

/** The creates of one event-loop turn commit together, as the engine's group commit does (store/insert-batcher.ts). */
function commitSoon(rows: Row[]): Promise<void> {
  return new Promise((done) => {
    if (waiting.length === 0)
      setImmediate(() => {
        const batch = waiting;
        waiting = [];
        db.transaction(() => {
          for (const entry of batch) for (const [table, row] of entry.rows) insertRow(table, row);
        })();
        for (const entry of batch) entry.done();
      });
    waiting.push({ rows, done });
  });
}

/** An address create's work without the HTTP API's machinery: standardize, then its rows in a group commit. */
async function createAddressRows(input: Record<string, unknown>): Promise<ApiObject> {
  const now = new Date().toISOString();
  const lines = standardizeUsRecord(input as unknown as UsAddressRecord);
  const address = {
    id: newId('adr'),
    description: null,
    name: typeof input.name === 'string' ? input.name.toUpperCase() : null,
    company: null,
    phone: null,
    email: null,
    ...lines,
    address_country: 'UNITED STATES',
    metadata: input.metadata ?? {},
    recipient_moved: false,
    object: 'address',
    date_created: now,
    date_modified: now,
  } as ApiObject;
  const row = objectRow(SCOPE, 'addresses', address);
  const metadata = Object.entries(address.metadata as Record<string, string>).map(([key, value]): Row => [
    'object_metadata',
    { object_id: address.id, account_id: SCOPE.accountId, mode: SCOPE.mode, kind: 'addresses', key, value },
  ]);
  await commitSoon([
    ['objects', row],
    ...metadata,
    ['events', eventRow(SCOPE, 'address.created', 'addresses', address, row.body)],
  ]);
  return address;
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const app = new Koa();
app.use(async (ctx) => {
  if (process.env.CEILING_SHAPE === 'rows') {
    ctx.body = await createAddressRows(JSON.parse(await readBody(ctx.req)) as Record<string, unknown>);
    return;
  }
  if (process.env.CEILING_SHAPE === 'durable') {
    const object = {
      id: `adr_${randomBytes(8).toString('hex')}`,
      ...(JSON.parse(await readBody(ctx.req)) as object),
      date_created: new Date().toISOString(),
    };
    insert.run(object.id, object.date_created, JSON.stringify(object));
    ctx.body = object;
    return;
  }
  if (process.env.CEILING_SHAPE === 'list') {
    ctx.set(HEADERS);
    ctx.body = JSON.parse(PAGE);
    return;
  }
  if (!shaped) {
    ctx.body = { id: 'adr_0123456789abcdef', object: 'address', ok: true };
    return;
  }
  ctx.set(HEADERS);
  ctx.body = JSON.parse(SAMPLE);
});
const server = http.createServer(app.callback());
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
void openDatabase().then(() =>
  server.listen(0, '127.0.0.1', () => {
    const address = server.address() as { port: number };
    process.stdout.write(`READY http://127.0.0.1:${address.port}\n`);
  }),
);
