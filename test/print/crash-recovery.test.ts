// Killing an engine with SIGKILL while it renders loses nothing: after a restart every piece reaches
// `rendered` with its thumbnails exactly once (one `postcard.rendered_pdf` and one
// `postcard.rendered_thumbnails` event each), on SQLite, on PostgreSQL, and with two engine processes
// sharing one PostgreSQL database. The three run at once: each spends most of its time waiting for the
// killed process's render leases to run out, and those waits overlap.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import knex, { type Knex } from 'knex';
import { serve, unlimitedAsync, type Served } from '../helpers/cli';
import { client } from '../helpers/http';
import { DATABASES } from '../helpers/matrix';
import { freshDatabase } from '../helpers/engine';
import { TO, FROM } from '../helpers/mail';

// The kill comes once 20 have rendered, so most of them (and the jobs the killed process holds) are
// left for the restarted engine: enough for the property, few enough to keep the renders cheap.
const PIECES = 100;

function engineEnv(databaseUrl: string, assets: string): Record<string, string> {
  // a 10 s render limit makes the lease 160 s (engine/faces/workers.ts, leaseOf): jobs held by the killed
  // process are taken again well within the wait for every piece. Not less: with the three tests
  // rendering at once beside another test file, a 5 s limit failed a piece with render_timeout
  return {
    DATABASE_URL: databaseUrl,
    ASSET_STORE: assets,
    LOG_LEVEL: 'silent',
    WORKERS: '2',
    RENDER_TIMEOUT_MS: '10000',
    // the lifted rate limit is seen at once, not after the default 2 s key cache
    KEY_CACHE_MS: '100',
    // no campaign runs here: a short run lease only makes the job queue's upkeep, which runs at half
    // the shortest lease (engine/platform/jobs/queue.ts) and is where PostgreSQL finds a lapsed render lease,
    // come every 2 s rather than every 15 s
    CAMPAIGN_RUN_LEASE_MS: '4000',
  };
}

async function createPostcards(served: Served, key: string, count: number): Promise<string[]> {
  const call = client(served.url, key);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 25) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(25, count - i) }, (_, j) =>
        call('POST', '/v1/postcards', {
          json: {
            to: TO,
            from: FROM,
            use_type: 'marketing',
            front: '<html><body style="margin:0;background:#cde"><h1>Card {{n}}</h1></body></html>',
            back: '<html><body><p>Back</p></body></html>',
            merge_variables: { n: i + j },
          },
        }),
      ),
    );
    for (const reply of batch) {
      if (reply.status !== 200) throw new Error(`create failed: ${JSON.stringify(reply.body)}`);
      ids.push((reply.body as { id: string }).id);
    }
  }
  return ids;
}

function connectTo(url: string): Knex {
  return /^postgres/.test(url)
    ? knex({ client: 'pg', connection: url, pool: { min: 0, max: 1 } })
    : knex({ client: 'better-sqlite3', connection: { filename: url }, useNullAsDefault: true });
}

/** Pieces done with both steps: rendered, with thumbnails. Throws at once if a piece failed. */
async function renderedCount(databaseUrl: string): Promise<number> {
  const db = connectTo(databaseUrl);
  try {
    const rows = (await db('objects').where({ kind: 'postcards' }).select('body')) as { body: string }[];
    const pieces = rows.map((r) => JSON.parse(r.body) as { status: string; thumbnails: unknown[] });
    const failed = pieces.find((piece) => piece.status === 'failed');
    if (failed) throw new Error(`a piece failed: ${JSON.stringify(failed)}`);
    return pieces.filter((piece) => piece.status === 'rendered' && piece.thumbnails.length > 0).length;
  } finally {
    await db.destroy();
  }
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

function kill(served: Served): Promise<void> {
  return new Promise((resolve) => {
    served.child.removeAllListeners('exit');
    served.child.once('exit', () => resolve());
    served.child.kill('SIGKILL');
  });
}

async function stop(served: Served): Promise<void> {
  if (served.child.exitCode !== null || served.child.signalCode !== null) return;
  served.child.removeAllListeners('exit');
  const exited = new Promise<void>((resolve) => served.child.once('exit', () => resolve()));
  served.child.kill('SIGTERM');
  await exited;
}

async function assertEachRenderedOnce(t: ExecutionContext, databaseUrl: string, ids: string[]): Promise<void> {
  const db = connectTo(databaseUrl);
  try {
    for (const type of ['postcard.rendered_pdf', 'postcard.rendered_thumbnails']) {
      const events = (await db('events')
        .where({ event_type: type })
        .select('reference_id')
        .count({ n: '*' })
        .groupBy('reference_id')) as { reference_id: string; n: number | string }[];
      const byPiece = new Map(events.map((e) => [e.reference_id, Number(e.n)]));
      t.deepEqual(
        ids.filter((id) => byPiece.get(id) !== 1),
        [],
        `every piece has exactly one ${type} event`,
      );
    }
    const failed = (await db('events').where({ event_type: 'postcard.failed' }).count({ n: '*' })) as {
      n: number | string;
    }[];
    t.is(Number(failed[0].n), 0);
  } finally {
    await db.destroy();
  }
}

/**
 * `processes` engines share one database; PIECES postcards are created through the first, the last is
 * SIGKILLed once some have rendered and started again; every piece must then finish exactly once.
 */
async function killMidRun(t: ExecutionContext, kind: (typeof DATABASES)[number], processes: 1 | 2): Promise<void> {
  t.timeout(600_000);
  const database = await freshDatabase(kind);
  const assets = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-assets-'));
  const env = engineEnv(database.url, assets);
  const engines: Served[] = [];
  try {
    for (let i = 0; i < processes; i++) engines.push(await serve(env));
    await unlimitedAsync(env);
    await new Promise((r) => setTimeout(r, 200));
    const ids = await createPostcards(engines[0], engines[0].keys['test secret'], PIECES);
    await until('some renders', async () => (await renderedCount(database.url)) >= 20, 180_000);
    await kill(engines[processes - 1]);
    const before = await renderedCount(database.url);
    t.true(before < PIECES, `the kill came mid-run (${before} of ${PIECES} rendered)`);
    engines[processes - 1] = await serve(env);
    await until('every piece rendered', async () => (await renderedCount(database.url)) === PIECES, 400_000);
    await assertEachRenderedOnce(t, database.url, ids);
  } finally {
    await Promise.all(engines.map((served) => stop(served).catch(() => undefined)));
    await database.drop();
    fs.rmSync(assets, { recursive: true, force: true });
  }
}

for (const kind of DATABASES) {
  test(`${kind}: SIGKILL mid-render loses no piece and renders none twice`, (t) => killMidRun(t, kind, 1));
}

if (DATABASES.includes('postgres')) {
  test('postgres: two engine processes, one killed mid-render, render every piece exactly once', (t) =>
    killMidRun(t, 'postgres', 2));
}
