// SQLite's WAL checkpoints, off the event loop. By default the writer that pushes the WAL past 1,000
// pages copies them into the database file inside its commit, so every few hundred creates one request
// waited for it: measured under a postcard load, about a tenth of the engine's CPU per create went to
// those copies on the one thread that serves requests. Here a worker thread with its own connection
// checkpoints PASSIVE-ly (never waiting on the writer) a few times a second, and the engine's
// connection stops checkpointing itself. Should the thread fail, the engine's connection takes the
// checkpoints back, so the WAL never grows without bound.
import { Worker } from 'node:worker_threads';
import type { Knex } from 'knex';

/** Plain JavaScript, so the thread needs no TypeScript loader however the engine runs. */
const SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(${JSON.stringify(require.resolve('better-sqlite3'))});
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.pragma('wal_checkpoint(PASSIVE)');
  db.close();
  parentPort.close();
});
`;

/** The default: SQLite's own threshold, restored on the engine's connection if the thread goes. */
const AUTOCHECKPOINT_PAGES = 1000;

export interface Checkpointer {
  stop(): Promise<void>;
}

export async function startCheckpointer(knex: Knex, file: string, intervalMs = 200): Promise<Checkpointer> {
  const worker = new Worker(SOURCE, { eval: true, workerData: { file, intervalMs } });
  let stopping = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fallBack = () => {
    if (stopping) return;
    stopping = true;
    void knex.raw(`pragma wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`).catch(() => undefined);
  };
  worker.once('error', fallBack);
  worker.once('exit', fallBack);
  // one connection (the pool's only one): the setting holds for every write the engine makes
  await knex.raw('pragma wal_autocheckpoint = 0');
  return {
    stop: async () => {
      if (stopping) return;
      stopping = true;
      worker.postMessage('stop');
      await exited;
      await knex.raw(`pragma wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`).catch(() => undefined);
    },
  };
}
