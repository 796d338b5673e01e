// What a postcard costs PostgreSQL in writes: WAL bytes per postcard, and the events table's size and
// dead rows after 3,000 postcards from 16 clients (no webhook: the dispatcher still takes each event).
// Usage: node --import tsx bench/pg-wal.ts   (also part of `npm run bench`)
import { startChild } from './lib';
import { POSTCARD_BODIES } from './bodies';
import { withPostgres } from './addresses';

const POSTCARDS = 3000;

export async function benchPostgresWal(): Promise<void> {
  const { default: knex } = await import('knex');
  await withPostgres(async (url) => {
    const engine = await startChild('engine-server.ts', { DATABASE_URL: url });
    const db = knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });
    try {
      const key = engine.lines.find((l) => l.startsWith('KEY '))!.slice(4);
      const headers = {
        authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}`,
        'content-type': 'application/json',
      };
      const lsn = async () =>
        ((await db.raw('select pg_current_wal_lsn() as l')) as { rows: { l: string }[] }).rows[0].l;
      const start = await lsn();
      let sent = 0;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (sent < POSTCARDS) {
            const body = POSTCARD_BODIES[sent++ % POSTCARD_BODIES.length];
            await (await fetch(`${engine.url}/v1/postcards`, { method: 'POST', headers, body })).text();
          }
        }),
      );
      // the dispatcher's passes (every 100 ms) take the last events
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const end = await lsn();
      const { rows } = (await db.raw(
        `select pg_wal_lsn_diff(?::pg_lsn, ?::pg_lsn) as wal, pg_total_relation_size('events') as size,
           (select n_tup_upd from pg_stat_user_tables where relname = 'events') as updated`,
        [end, start],
      )) as { rows: { wal: string; size: string; updated: string }[] };
      process.stdout.write(
        `${POSTCARDS} postcards: ${Math.round(Number(rows[0].wal) / POSTCARDS)} bytes of WAL each; events table ` +
          `${Math.round(Number(rows[0].size) / 1024)} KB with its indexes, ${rows[0].updated} event rows rewritten\n`,
      );
    } finally {
      engine.process.kill();
      await db.destroy();
    }
  });
}

if (require.main === module) void benchPostgresWal();
