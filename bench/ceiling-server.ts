// The ceiling: a bare Koa handler answering JSON, on the same machine, as the engine would.
// CEILING_SHAPE=address answers with an address object and the engine's response headers, so the
// cost of the response itself (size, headers, the socket write) is in the ceiling too.
import http from 'node:http';
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

const app = new Koa();
app.use(async (ctx) => {
  if (!shaped) {
    ctx.body = { id: 'adr_0123456789abcdef', object: 'address', ok: true };
    return;
  }
  ctx.set(HEADERS);
  ctx.body = JSON.parse(SAMPLE);
});
const server = http.createServer(app.callback());
process.on('SIGINT', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY http://127.0.0.1:${address.port}\n`);
});
