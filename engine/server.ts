// Starts the engine: connect, migrate, bootstrap the first account, serve HTTP(S).
import http, { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from './errors';
import https from 'node:https';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { connect, type Database } from './store/connection';
import { migrateLatest } from './store/migrate';
import { ObjectStore } from './store/objects';
import { knexReader, sqliteReader } from './store/reader';
import { Accounts, type KeySet } from './accounts/accounts';
import { createApp } from './http/app';
import type { EngineConfig } from './config';
import type { Services } from './services';

/**
 * Requests Node's parser refuses (headers or URL past 16 KB, a broken request line) never reach Koa;
 * they still get the spec's error body.
 */
function answerUnparsable(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message = status === 431 ? 'The request line and headers must be at most 16 KB together.' : 'The request is not valid HTTP.';
  const body = JSON.stringify(new ApiError('invalid', message, status).toBody());
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

export interface RunningEngine {
  url: string;
  services: Services;
  /** keys of the account created on an empty database (shown once) */
  bootstrapKeys?: KeySet;
  close(): Promise<void>;
}

export async function openServices(config: EngineConfig, db: Database = connect(config.databaseUrl)): Promise<Services> {
  await migrateLatest(db.knex);
  const reader = db.file && db.file !== ':memory:' ? sqliteReader(db.file) : knexReader(db.knex);
  return {
    db,
    objects: new ObjectStore(db.knex, reader),
    reader,
    accounts: new Accounts(db.knex, config.keyCacheMs),
    config,
    close: async () => {
      reader.close();
      await db.knex.destroy();
    },
  };
}

export async function startEngine(config: EngineConfig): Promise<RunningEngine> {
  const services = await openServices(config);
  let bootstrapKeys: KeySet | undefined;
  if ((await services.accounts.count()) === 0) {
    bootstrapKeys = (await services.accounts.create(config.bootstrapAccount)).keys;
  }
  const app = createApp(services);
  const tls = config.tlsCert && config.tlsKey;
  const server = tls
    ? https.createServer({ cert: fs.readFileSync(config.tlsCert!), key: fs.readFileSync(config.tlsKey!) }, app.callback())
    : http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerUnparsable);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    await services.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return {
    url: `${tls ? 'https' : 'http'}://${host}:${port}`,
    services,
    bootstrapKeys,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await services.close();
    },
  };
}
