// What the production and tracking suites share: a live-ready account, waiting for a condition, and
// reading what the engine handed the print room (PRINT_OUTBOX) and took from the carrier (TRACKING_INBOX).
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { BIN } from '../../helpers/cli';
import { client } from '../../helpers/http';
import type { TestEngine } from '../../helpers/engine';

export type Call = ReturnType<typeof client>;

/** A fresh account whose live keys may create pieces, due for production at once (window 0). */
export async function liveAccount(
  engine: TestEngine,
): Promise<{ live: Call; test: Call; name: string; keys: { live: string; test: string } }> {
  const name = `lifecycle-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  await engine.setSetting('payment_method_verified', true, name);
  await engine.setSetting('email_verified', true, name);
  await engine.setSetting('cancellation_window_minutes', 0, name);
  await engine.setSetting('rate_limit_per_5s', 100_000, name);
  return { live: client(engine.url, keys.live), test: client(engine.url, keys.test), name, keys };
}

export async function until<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The day folders of the outbox (not its `.staging`). */
export function dayFolders(outbox: string): string[] {
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .filter((name) => /^\d{4}-\d{2}-\d{2}$/.test(name))
    .map((name) => path.join(outbox, name));
}

/** Every ticket file of `pieceId` in the outbox's day folders. */
export function ticketFiles(outbox: string, pieceId: string): string[] {
  return dayFolders(outbox)
    .map((day) => path.join(day, `${pieceId}.json`))
    .filter((file) => fs.existsSync(file));
}

export type Ticket = Record<string, unknown> & { ticket: string; piece_id: string; pdf: string };

/** The piece's one ticket once it is there, with the folder it is in. */
export async function ticketOf(
  outbox: string,
  pieceId: string,
  timeoutMs = 60_000,
): Promise<{ ticket: Ticket; file: string }> {
  return until(
    `the ticket of ${pieceId}`,
    () => {
      const [file] = ticketFiles(outbox, pieceId);
      return file ? { ticket: JSON.parse(fs.readFileSync(file, 'utf8')) as Ticket, file } : undefined;
    },
    timeoutMs,
  );
}

/** Staged files left for `pieceId` (none once its claimed job is released). */
export const stagedFiles = (outbox: string, pieceId: string): string[] => {
  const staging = path.join(outbox, '.staging');
  return fs.existsSync(staging) ? fs.readdirSync(staging).filter((n) => n.startsWith(`${pieceId}.`)) : [];
};

/** Drops a scan record into the inbox as a producer should: written under another name, then renamed. */
export function dropRecord(inbox: string, name: string, record: unknown): void {
  fs.mkdirSync(inbox, { recursive: true });
  const text = typeof record === 'string' ? record : JSON.stringify(record);
  fs.writeFileSync(path.join(inbox, `${name}.tmp`), text);
  fs.renameSync(path.join(inbox, `${name}.tmp`), path.join(inbox, `${name}.json`));
}

/** `printpost <args>` against the engine's database, as an operator runs it. */
export function printpost(databaseUrl: string, args: string[]) {
  return spawnSync(BIN, args, {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}
