// THE agent policy, on every operation the catalog says makes mailpieces (`mails`), on SQLite and
// PostgreSQL: each is driven in live mode by an AI agent (the Printpost-Agent header; an operation that
// mails later drives a campaign a person then sends) and is refused without agents_send_live with
// nothing made and the day's count unchanged, refused with its count once the day's places are used
// up, and allowed below them, counted, with the send date held past the cancellation window. An
// operation without a driver fails the test, so a new one cannot be forgotten. Then a scheduled run
// of a campaign an agent made is held likewise, with no caller at all.
import test from 'ava';
import { connect } from '../../engine/store/connection';
import { readCounter, setCounter } from '../../engine/store/counters';
import { agentPiecesOn } from '../../engine/domain/agents/limits';
import { mailingOperations, mailpieceResources } from '../../engine/catalog';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import type { TestEngine } from '../helpers/engine';
import { settledRun } from '../helpers/campaign';
import { DRIVERS, type Actors } from './agent-policy-drivers';

const WINDOW_MINUTES = 5;
const PER_DAY = 4;
const LIVE_READY = {
  payment_method_verified: true,
  email_verified: true,
  rate_limit_per_5s: 100000,
  agent_pieces_per_day: PER_DAY,
  cancellation_window_minutes: WINDOW_MINUTES,
} as const;

const { test: each } = databaseSuite({ env: { KEY_CACHE_MS: '0' } });

test('every operation that makes mailpieces has a driver in the agent policy test', (t) => {
  const listed = mailingOperations().map(({ resource, operation }) => `${resource.name}.${operation.name}`);
  t.true(listed.length >= 7, listed.join(', '));
  t.deepEqual([...listed].sort(), Object.keys(DRIVERS).sort());
});

/** A new account ready for live mail, its live key as a person and as an agent, and the database. */
async function actorsOf(engine: TestEngine): Promise<Actors & { account: string; close(): Promise<void> }> {
  const account = `agent-${Math.random().toString(36).slice(2, 10)}`;
  const keys = await engine.createAccount(account);
  for (const [name, value] of Object.entries(LIVE_READY))
    await engine.setSetting(name as keyof typeof LIVE_READY, value, account);
  const human = client(engine.url, keys.live);
  const plain = client(engine.url, keys.live);
  const agent: typeof plain = (method, path, options = {}) =>
    plain(method, path, { ...options, headers: { ...options.headers, 'Printpost-Agent': '1' } });
  const { knex } = connect(engine.databaseUrl, 1);
  return { url: engine.url, human, agent, key: keys.live, knex, account, close: () => knex.destroy() };
}

interface Piece {
  id: string;
  send_date: string;
}

/** Every live piece of the account, of every kind. */
async function livePieces(actors: Actors): Promise<Piece[]> {
  const pieces: Piece[] = [];
  for (const kind of mailpieceResources)
    pieces.push(...((await actors.human('GET', `/v1/${kind.name}?limit=100`)).body.data as Piece[]));
  return pieces;
}

/** The account's id, as the engine keeps it. */
async function accountIdOf(actors: { knex: Actors['knex'] }, name: string): Promise<string> {
  const row: { id: string } | undefined = await actors.knex('accounts').where({ name }).first('id');
  if (!row) throw new Error(`no account ${name}`);
  return row.id;
}

for (const [name, drive] of Object.entries(DRIVERS))
  each(`the agent policy holds ${name}`, async (t, { engine }) => {
    t.timeout(120_000);
    const actors = await actorsOf(engine);
    t.teardown(() => actors.close());
    const today = new Date().toISOString().slice(0, 10);
    const counter = agentPiecesOn({ accountId: await accountIdOf(actors, actors.account), mode: 'live' }, today);
    const count = () => readCounter(actors.knex, counter);
    const driveSettled = async () => {
      const driven = await drive(actors);
      if (driven.campaign && driven.reply.status === 200)
        t.is((await settledRun(actors.human, driven.campaign, driven.reply.body.id)).status, 'completed');
      return driven;
    };

    // 1. agents_send_live is off: refused, nothing made, nothing counted
    const before = (await livePieces(actors)).length;
    const forbidden = await driveSettled();
    t.is(forbidden.reply.status, 403, JSON.stringify(forbidden.reply.body));
    t.is(forbidden.reply.body.error.code, 'agent_live_mail_not_allowed');
    t.is((await livePieces(actors)).length, before, 'no piece made');
    t.is(await count(), 0, 'nothing counted');

    // 2. allowed; once the day's places left are fewer than it asks for, refused with the count
    await engine.setSetting('agents_send_live', true, actors.account);
    const probe = await driveSettled();
    t.is(probe.reply.status, 200, JSON.stringify(probe.reply.body));
    const asks = probe.pieces;
    t.is(await count(), asks, 'counted');
    await setCounter(actors.knex, counter, PER_DAY - asks + 1);
    const made = (await livePieces(actors)).length;
    const over = await driveSettled();
    t.is(over.reply.status, 403, JSON.stringify(over.reply.body));
    t.is(over.reply.body.error.code, 'agent_limit_reached');
    if (over.campaign)
      t.regex(
        over.reply.body.error.message,
        new RegExp(`would mail ${asks} pieces; only ${asks - 1} of today's ${PER_DAY}`),
      );
    t.is((await livePieces(actors)).length, made, 'no piece made past the cap');
    t.is(await count(), PER_DAY - asks + 1, 'the count stays');

    // 3. below the cap: made, counted, each send date past the cancellation window
    await setCounter(actors.knex, counter, 0);
    const started = Date.now();
    const known = new Set((await livePieces(actors)).map((p) => p.id));
    const allowed = await driveSettled();
    t.is(allowed.reply.status, 200, JSON.stringify(allowed.reply.body));
    t.is(await count(), asks, 'its pieces took their places');
    const fresh = (await livePieces(actors)).filter((p) => !known.has(p.id));
    t.is(fresh.length, asks, 'its pieces were made');
    for (const piece of fresh)
      t.true(Date.parse(piece.send_date) >= started + WINDOW_MINUTES * 60_000, `${piece.id} held past the window`);
  });

each('two agent sends at once cannot overdraw the day', async (t, { engine }) => {
  t.timeout(120_000);
  const actors = await actorsOf(engine);
  t.teardown(() => actors.close());
  await engine.setSetting('agents_send_live', true, actors.account);
  const today = new Date().toISOString().slice(0, 10);
  const counter = agentPiecesOn({ accountId: await accountIdOf(actors, actors.account), mode: 'live' }, today);
  // room for one send of two pieces, not two
  await setCounter(actors.knex, counter, PER_DAY - 3);
  const send = DRIVERS['campaigns.send'];
  const both = await Promise.all([send(actors), send(actors)]);
  const statuses = both.map((driven) => driven.reply.status).sort();
  t.deepEqual(statuses, [200, 403], JSON.stringify(both.map((d) => d.reply.body)));
  const sent = both.find((driven) => driven.reply.status === 200)!;
  t.is((await settledRun(actors.human, sent.campaign!, sent.reply.body.id)).pieces_created, 2);
  t.is(await readCounter(actors.knex, counter), PER_DAY - 1);
  t.is((await livePieces(actors)).length, 2);
});
