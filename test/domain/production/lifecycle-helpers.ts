// What the lifecycle suites share: an engine with its workers and its own print room folders (one at a
// time, as each holds a browser), and creating, reading and hooking pieces through its API.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEngine, USPS_ENV, type Db, type TestEngine } from '../../helpers/engine';
import type { Received } from '../../helpers/receiver';
import { settled } from '../../print/helpers';
import type { Call } from './production-helpers';

export interface Setup {
  engine: TestEngine;
  outbox: string;
  inbox: string;
  dir: string;
}

export interface Tracked {
  id: string;
  type: string;
  name: string;
  details: unknown;
  location: string | null;
  time: string;
  object: string;
  simulated?: boolean;
}

export type Piece = Record<string, unknown> & {
  id: string;
  status: string;
  url: string;
  production?: { id: string; date_created: string; simulated: boolean };
  tracking_events: Tracked[];
};

/** An engine per database, the previous one closed before the next starts; `close` ends the last. */
export function enginePerDatabase(): { setupFor(db: Db): Promise<Setup>; close(): Promise<void> } {
  let current: { db: Db; setup: Promise<Setup> } | undefined;
  const end = async (setup: Setup) => {
    await setup.engine.close();
    fs.rmSync(setup.dir, { recursive: true, force: true });
  };
  return {
    async setupFor(db) {
      if (current?.db === db) return current.setup;
      if (current) await end(await current.setup);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-lifecycle-'));
      const outbox = path.join(dir, 'outbox');
      const inbox = path.join(dir, 'inbox');
      const setup = startEngine({
        db,
        workers: true,
        env: {
          ...USPS_ENV,
          PRINT_OUTBOX: outbox,
          TRACKING_INBOX: inbox,
          ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8',
          WEBHOOK_RETRY_BASE_MS: '50',
        },
      }).then((engine) => ({ engine, outbox, inbox, dir }));
      current = { db, setup };
      return setup;
    },
    async close() {
      if (current) await end(await current.setup);
      current = undefined;
    },
  };
}

export async function created(call: Call, kind: string, body: unknown): Promise<Piece> {
  const reply = await call<Piece>('POST', `/v1/${kind}`, { json: body });
  if (reply.status !== 200) throw new Error(`POST /v1/${kind}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function rendered(call: Call, kind: string, id: string): Promise<Piece> {
  const piece = (await settled(call, `/v1/${kind}`, id, 120_000, true)) as unknown as Piece;
  if (piece.status !== 'rendered') throw new Error(`${id} did not render: ${JSON.stringify(piece.failure_reason)}`);
  return piece;
}

export const get = async (call: Call, kind: string, id: string): Promise<Piece> =>
  (await call<Piece>('GET', `/v1/${kind}/${id}`)).body;

export async function hook(call: Call, url: string, eventTypes: string[]): Promise<void> {
  const reply = await call('POST', '/v1/webhooks', { json: { url, event_types: eventTypes } });
  if (reply.status !== 200) throw new Error(`webhook: ${reply.status} ${JSON.stringify(reply.body)}`);
}

export interface DeliveredEvent {
  id: string;
  object: string;
  date_created: string;
  event_type: { id: string; enabled_for_test: boolean; resource: string; object: string };
  reference_id: string;
  body: Piece;
}

export const eventsOf = (received: Received[]): DeliveredEvent[] =>
  received.map((r) => JSON.parse(r.body) as DeliveredEvent);
