// The ceiling: a bare Koa handler answering JSON, on the same machine, as the engine would.
import http from 'node:http';
import Koa from 'koa';

const app = new Koa();
app.use(async (ctx) => {
  ctx.body = { id: 'adr_0123456789abcdef', object: 'address', ok: true };
});
const server = http.createServer(app.callback());
process.on('SIGINT', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`READY http://127.0.0.1:${address.port}\n`);
});
