// Killing an engine with SIGKILL while it sends pieces to production prints nothing twice and loses
// nothing: live postcards all due at one send_date are produced by `printpost serve` children, the
// last child is killed as the first tickets reach the outbox and started again, and every piece must
// end with exactly one ticket (its PDF beside it), the one its `production` names. A print room takes
// each ticket out of the outbox as it appears, so a ticket written a second time would show up again.
// On SQLite, on PostgreSQL, and with two engine processes sharing one PostgreSQL database. The three
// run at once: most of each is waiting (for the send_date, then for the killed process's leases).
// The day's manifest (outbox/<day>/manifest.csv) must then list every piece exactly once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import test, { type ExecutionContext } from 'ava';
import { BIN, serve, type Served } from '../../helpers/cli';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { freshDatabase, USPS_ENV, type Db } from '../../helpers/engine';
import { postcard } from '../../helpers/mail';
import { dayFolders, until } from './production-helpers';

const PIECES = 80;
/** How far ahead the one send_date is: time for most pieces to render (the three tests render at once). */
const LEAD_MS = 50_000;

/** A print room: takes every ticket (and its PDF) out of the outbox, noting anything taken twice. */
function printRoom(outbox: string, taken: string) {
  fs.mkdirSync(taken, { recursive: true });
  const seen = new Set<string>();
  const problems: string[] = [];
  const take = () => {
    for (const day of dayFolders(outbox))
      for (const name of fs.readdirSync(day).filter((n) => n.endsWith('.json'))) {
        const id = name.slice(0, -'.json'.length);
        const ticket = path.join(day, name);
        const pdf = path.join(day, `${id}.pdf`);
        if (!fs.existsSync(pdf)) problems.push(`${id}: a ticket without its PDF`);
        try {
          JSON.parse(fs.readFileSync(ticket, 'utf8'));
        } catch {
          problems.push(`${id}: half a ticket`);
        }
        if (seen.has(id)) problems.push(`${id}: a second ticket`);
        seen.add(id);
        fs.renameSync(ticket, path.join(taken, `${id}.${seen.size}.json`));
        if (fs.existsSync(pdf)) fs.renameSync(pdf, path.join(taken, `${id}.${seen.size}.pdf`));
      }
  };
  const timer = setInterval(() => {
    try {
      take();
    } catch (error) {
      problems.push(`the print room failed: ${String(error)}`);
    }
  }, 20);
  return {
    seen,
    problems,
    stop: () => clearInterval(timer),
  };
}

/** The piece ids of every line of the outbox's manifests (not their headers). */
const manifestIds = (outbox: string): string[] =>
  dayFolders(outbox).flatMap((day) => {
    const file = path.join(day, 'manifest.csv');
    if (!fs.existsSync(file)) return [];
    return fs
      .readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[1]);
  });

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

async function killMidProduction(t: ExecutionContext, kind: Db, processes: 1 | 2): Promise<void> {
  t.timeout(1_200_000);
  const database = await freshDatabase(kind);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-produce-'));
  const outbox = path.join(dir, 'outbox');
  const env = {
    ...USPS_ENV,
    DATABASE_URL: database.url,
    ASSET_STORE: path.join(dir, 'assets'),
    PRINT_OUTBOX: outbox,
    TRACKING_INBOX: path.join(dir, 'inbox'),
    LOG_LEVEL: 'silent',
    WORKERS: '2',
    // a render job held by the killed process is taken again after its lease, which this shortens
    // (engine/faces/workers.ts, leaseOf: 160 s); not below 10 s, as the three tests render at once beside
    // another test file (a 5 s limit failed a piece with render_timeout in test/print/crash-recovery)
    RENDER_TIMEOUT_MS: '10000',
  };
  // not execFileSync: the other tests' print rooms and kills keep their timing while the CLI runs
  const settings = (name: string, value: string) =>
    promisify(execFile)(BIN, ['settings', 'set', name, value], { env: { ...process.env, ...env } });
  const engines: Served[] = [];
  const room = printRoom(outbox, path.join(dir, 'taken'));
  try {
    for (let i = 0; i < processes; i++) engines.push(await serve(env));
    for (const [name, value] of [
      ['payment_method_verified', 'true'],
      ['email_verified', 'true'],
      ['rate_limit_per_5s', '10000000'],
    ])
      await settings(name, value);
    // one send_date for all, ahead enough for most pieces to render first: production comes in a burst
    const sendDate = new Date(Date.now() + LEAD_MS).toISOString();
    const liveKey = engines[0].keys['live secret'];
    const live = client(engines[0].url, liveKey);
    const ids: string[] = [];
    for (let i = 0; i < PIECES; i += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, PIECES - i) }, () =>
          live<{ id: string }>('POST', '/v1/postcards', { json: postcard({ send_date: sendDate }) }),
        ),
      );
      for (const reply of batch) {
        if (reply.status !== 200) throw new Error(`create failed: ${reply.status} ${JSON.stringify(reply.body)}`);
        ids.push(reply.body.id);
      }
    }
    // the kill follows the first ticket as closely as the print room sees it
    const deadline = Date.now() + 600_000;
    while (room.seen.size === 0) {
      if (Date.now() > deadline) throw new Error('no ticket came');
      await new Promise((r) => setTimeout(r, 5));
    }
    await kill(engines[processes - 1]);
    const before = room.seen.size;
    t.true(before < PIECES, `the kill came mid-production (${before} of ${PIECES} produced)`);
    t.log(`killed with ${before} of ${PIECES} tickets out`);
    engines[processes - 1] = await serve(env);
    await until('a ticket for every piece', () => (room.seen.size === PIECES ? true : undefined), 300_000);
    await until('nothing left staged', () => {
      const staging = path.join(outbox, '.staging');
      return !fs.existsSync(staging) || fs.readdirSync(staging).length === 0 ? true : undefined;
    });
    t.deepEqual(room.problems, []);
    t.deepEqual(
      ids.filter((id) => !room.seen.has(id)),
      [],
      'every piece produced',
    );
    // each ticket is the one its piece's claim names (asked of the engine serving now)
    const api = client(engines[0].url, liveKey);
    const taken = path.join(dir, 'taken');
    for (const id of ids) {
      const [file] = fs.readdirSync(taken).filter((n) => n.startsWith(`${id}.`) && n.endsWith('.json'));
      const ticket = JSON.parse(fs.readFileSync(path.join(taken, file), 'utf8')) as { ticket: string };
      const piece = (await api<{ production?: { id: string } }>('GET', `/v1/postcards/${id}`)).body;
      t.is(piece.production?.id, ticket.ticket, id);
    }
    await until('every piece on the manifest', () => (manifestIds(outbox).length >= PIECES ? true : undefined));
    // and a while later, nothing more came
    await new Promise((r) => setTimeout(r, 3_000));
    t.is(room.seen.size, PIECES);
    t.deepEqual(room.problems, []);
    const listed = manifestIds(outbox);
    t.is(listed.length, PIECES, 'one manifest line per piece');
    t.deepEqual([...listed].sort(), [...ids].sort());
  } finally {
    room.stop();
    await Promise.all(engines.map((served) => stop(served).catch(() => undefined)));
    await database.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const kind of DATABASES) {
  test(`${kind}: SIGKILL mid-production prints every piece exactly once`, (t) => killMidProduction(t, kind, 1));
}

if (DATABASES.includes('postgres')) {
  test('postgres: two engine processes, one killed mid-production, print every piece exactly once', (t) =>
    killMidProduction(t, 'postgres', 2));
}
