// The ceiling: a bare Koa handler answering JSON, on the same machine, as the engine would.
// CEILING_SHAPE=address answers with an address object and the engine's response headers, so the
// cost of the response itself (size, headers, the socket write) is in the ceiling too.
// CEILING_SHAPE=list answers a list page of ten addresses the same way.
// CEILING_SHAPE=durable is the least a persisting Koa API pays for a create: it reads the JSON body and
// inserts it as one row into SQLite (WAL, synchronous=NORMAL, as the engine runs it) before it answers.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { addresses } from '../engine/catalog/addresses';

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
const db = new Database(path.join(dir, 'ceiling.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('create table objects (id text primary key, date_created text not null, body text not null)');
const insert = db.prepare('insert into objects (id, date_created, body) values (?, ?, ?)');

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const app = new Koa();
app.use(async (ctx) => {
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
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY http://127.0.0.1:${address.port}\n`);
});
