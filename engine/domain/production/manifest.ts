// The outbox's daily manifest (`<day>/manifest.csv`): one line per piece handed off that day, so a print
// room can reconcile what it received. Its lines are not appended to the file: each is a file of its
// own in the ledger (`.manifest/<day>/<piece id>`), staged with the ticket and released by a rename
// after it (outbox.ts), so a piece has one line whatever retries and processes do, as it has one
// ticket. The manifest is then rewritten whole from the ledger: written and fsynced under a temporary
// name, renamed over the old one, so it is never half written. Two processes may rewrite it at once,
// the later rename from an older listing; so each writer lists the ledger again after its rename and
// writes again if the listing grew. The last rename is then always followed by a listing equal to
// what it wrote: nothing released before that listing is missing. A process killed between its
// release and its rewrite leaves its produce job unfinished, and the retry rewrites.
// ARCHITECTURE.md, "Production and tracking", says why the ledger is files and not the database.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { JobTicket } from './ticket-schema';
import { codeOf } from '../../base/thrown';

export const MANIFEST_FILE = 'manifest.csv';
export const MANIFEST_HEADER = 'ticket,piece_id,kind,pdf,sheets,mail_type,date_produced';
/** Days whose ledger lines this process keeps in memory (today, and a day a late retry may touch). */
const CACHED_DAYS = 3;

/** The piece's manifest line: ids, names, a count and an instant, none of which holds a comma or quote. */
export const manifestLine = (t: JobTicket): string =>
  [t.ticket, t.piece_id, t.kind, t.pdf, t.sheets, t.mail_type, t.date_produced].join(',');

const isMissing = (error: unknown) => codeOf(error) === 'ENOENT';

async function listing(folder: string): Promise<string[]> {
  try {
    return (await fs.readdir(folder)).filter((name) => !name.startsWith('.')).sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function writeDurably(file: string, text: string): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class DayManifests {
  /** the ledger: `.manifest/<day>/<piece id>`, each file one line */
  readonly ledger: string;
  private readonly outbox: string;
  /** lines read so far by day and piece: a ledger file never changes once released */
  private readonly lines = new Map<string, Map<string, string>>();
  /** per day, the rewrite waiting to start (callers join it) and the one running */
  private readonly queued = new Map<string, Promise<void>>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(outbox: string) {
    this.outbox = outbox;
    this.ledger = path.join(outbox, '.manifest');
  }

  /** Where the piece's released line goes. */
  lineFile(day: string, pieceId: string): string {
    return path.join(this.ledger, day, pieceId);
  }

  /** Resolves once a rewrite of the day's manifest that began after this call has finished. */
  rewrite(day: string): Promise<void> {
    const waiting = this.queued.get(day);
    if (waiting) return waiting;
    const before = this.running.get(day) ?? Promise.resolve();
    const next = before
      .catch(() => undefined)
      .then(() => {
        this.queued.delete(day);
        const run = this.write(day).finally(() => {
          if (this.running.get(day) === run) this.running.delete(day);
        });
        this.running.set(day, run);
        return run;
      });
    this.queued.set(day, next);
    return next;
  }

  private async write(day: string): Promise<void> {
    const folder = path.join(this.ledger, day);
    let names = await listing(folder);
    for (;;) {
      const text = await this.manifestOf(day, folder, names);
      const target = path.join(this.outbox, day);
      await fs.mkdir(target, { recursive: true });
      const temporary = path.join(this.ledger, `${day}.${randomBytes(6).toString('hex')}.tmp`);
      await writeDurably(temporary, text);
      await fs.rename(temporary, path.join(target, MANIFEST_FILE));
      const again = await listing(folder);
      // the ledger only grows: the same length is the same lines
      if (again.length === names.length) return;
      names = again;
    }
  }

  private async manifestOf(day: string, folder: string, names: string[]): Promise<string> {
    let known = this.lines.get(day);
    if (!known) {
      known = new Map();
      this.lines.set(day, known);
      for (const old of [...this.lines.keys()].sort().slice(0, -CACHED_DAYS)) this.lines.delete(old);
    }
    for (const name of names)
      if (!known.has(name)) known.set(name, (await fs.readFile(path.join(folder, name), 'utf8')).trim());
    const rows = names.map((name) => known.get(name) ?? '');
    // in the order pieces went to production (the last column), then by piece id
    const at = (row: string) => row.slice(row.lastIndexOf(',') + 1);
    rows.sort((a, b) => at(a).localeCompare(at(b)) || a.localeCompare(b));
    return `${[MANIFEST_HEADER, ...rows].join('\n')}\n`;
  }
}
