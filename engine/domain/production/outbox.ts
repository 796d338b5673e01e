// The default print provider: folders shared with an in-house print room (README, "Production and
// tracking"). Production goes to PRINT_OUTBOX, one folder a day (UTC) holding each piece's PDF and
// JSON job ticket under the piece's id; scans come from TRACKING_INBOX, one JSON record a file, and the
// print room's replies (a rejected piece) from the outbox's `replies/` folder, read the same way.
//
// A job is first staged in the outbox's `.staging` folder (written, fsynced) under its ticket id; the
// claimed one is then renamed into its day's folder, the PDF before the ticket, so the print room
// never sees a ticket without its PDF, nor half a file. A rename moves the only copy: once the
// staged file is gone it was handed over, so a second release, by a retry or another process, finds
// nothing to move and a ticket is never written twice, even after the print room took the first.
// The piece's manifest line is staged and released the same way, after the ticket (manifest.ts).
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PrintJob, PrintProvider, TakenScan } from './provider';
import { DayManifests, manifestLine } from './manifest';
import { codeOf } from '../../base/thrown';

const STAGING = '.staging';
/** Where the print room drops its replies (reject.ts), inside the outbox it reads from. */
export const REPLIES = 'replies';
/** Inbox files being applied: one taken by a process that died is put back after this long. */
const TAKING = '.taking';
const STALE_TAKE_MS = 5 * 60_000;

const isMissing = (error: unknown) => codeOf(error) === 'ENOENT';

/** Writes `bytes` to `file` and flushes it to disk before resolving. */
async function writeDurably(file: string, bytes: Uint8Array | string): Promise<void> {
  const handle = await fs.open(file, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Flushes a folder's entries (a rename into or out of it) to disk. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await fs.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Renames `from` to `to`; false when `from` is gone (someone moved it first). */
async function move(from: string, to: string): Promise<boolean> {
  try {
    await fs.rename(from, to);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** The day folder of a production date: `2024-05-01`, in UTC. */
export const dayOf = (date: string): string => new Date(date).toISOString().slice(0, 10);

export class FolderProvider implements PrintProvider {
  readonly label: string;
  private readonly outbox: string;
  private readonly staging: string;
  private readonly inbox: string;
  private readonly manifests: DayManifests;

  constructor(outbox: string, inbox: string) {
    this.outbox = path.resolve(outbox);
    this.staging = path.join(this.outbox, STAGING);
    this.manifests = new DayManifests(this.outbox);
    this.inbox = path.resolve(inbox);
    this.label = `outbox ${this.outbox}, inbox ${this.inbox}`;
  }

  private staged(pieceId: string, ticketId: string, ext: 'pdf' | 'json' | 'line'): string {
    return path.join(this.staging, `${pieceId}.${ticketId}.${ext}`);
  }

  async stage(job: PrintJob): Promise<void> {
    const { piece_id: pieceId, ticket } = job.ticket;
    await fs.mkdir(this.staging, { recursive: true });
    await writeDurably(this.staged(pieceId, ticket, 'pdf'), job.pdf);
    await writeDurably(this.staged(pieceId, ticket, 'json'), `${JSON.stringify(job.ticket, null, 2)}\n`);
    await writeDurably(this.staged(pieceId, ticket, 'line'), `${manifestLine(job.ticket)}\n`);
    await syncFolder(this.staging);
  }

  async release(pieceId: string, ticketId: string, date: string): Promise<void> {
    const day = path.join(this.outbox, dayOf(date));
    await fs.mkdir(day, { recursive: true });
    // the PDF first: a ticket in the day's folder always has its PDF beside it
    const pdf = await move(this.staged(pieceId, ticketId, 'pdf'), path.join(day, `${pieceId}.pdf`));
    const ticket = await move(this.staged(pieceId, ticketId, 'json'), path.join(day, `${pieceId}.json`));
    if (pdf || ticket) await Promise.all([syncFolder(day), syncFolder(this.staging)]);
    // then its manifest line, and the day's manifest rewritten (again, harmlessly, on a retry)
    const lineFile = this.manifests.lineFile(dayOf(date), pieceId);
    await fs.mkdir(path.dirname(lineFile), { recursive: true });
    if (await move(this.staged(pieceId, ticketId, 'line'), lineFile)) await syncFolder(path.dirname(lineFile));
    await this.manifests.rewrite(dayOf(date));
  }

  async discardOthers(pieceId: string, keep?: string): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(this.staging);
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    const prefix = `${pieceId}.`;
    const kept = keep === undefined ? undefined : `${pieceId}.${keep}.`;
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && (kept === undefined || !name.startsWith(kept)))
        .map((name) => fs.rm(path.join(this.staging, name), { force: true })),
    );
  }

  /**
   * Records are `*.json` files in the inbox (a writer should write another name, then rename). Each is
   * taken by renaming it into `.taking` under a name of its own: of two processes only one succeeds.
   */
  takeScans(max: number): Promise<TakenScan[]> {
    return this.takeFrom(this.inbox, max);
  }

  /** The print room's replies, `*.json` files in `<outbox>/replies`, taken as scans are. */
  takeReplies(max: number): Promise<TakenScan[]> {
    return this.takeFrom(path.join(this.outbox, REPLIES), max);
  }

  private async takeFrom(folder: string, max: number): Promise<TakenScan[]> {
    const taking = path.join(folder, TAKING);
    await fs.mkdir(taking, { recursive: true });
    await this.putBackStale(folder, taking);
    const names = (await fs.readdir(folder, { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
      .map((entry) => entry.name)
      .sort()
      .slice(0, max);
    const taken: TakenScan[] = [];
    for (const name of names) {
      // the time taken is in the name: a rename keeps the file's own times
      const held = path.join(taking, `${Date.now()}.${randomBytes(6).toString('hex')}.${name}`);
      if (!(await move(path.join(folder, name), held))) continue;
      taken.push({
        source: name,
        text: await fs.readFile(held, 'utf8'),
        done: () => this.settle(folder, held, 'done', name),
        reject: (reason) => this.settle(folder, held, 'rejected', name, reason),
      });
    }
    return taken;
  }

  /** Moves a taken record to `done/` or `rejected/` (with `<name>.reason.txt`), keeping its name unique. */
  private async settle(
    from: string,
    held: string,
    folder: 'done' | 'rejected',
    name: string,
    reason?: string,
  ): Promise<void> {
    const target = path.join(from, folder);
    await fs.mkdir(target, { recursive: true });
    let file = path.join(target, name);
    if (await exists(file)) file = path.join(target, `${name.replace(/\.json$/, '')}.${Date.now()}.json`);
    if (reason !== undefined) await fs.writeFile(`${file.replace(/\.json$/, '')}.reason.txt`, `${reason}\n`);
    await move(held, file);
  }

  /** Records a process took and never settled (it died) go back to the inbox to be taken again. */
  private async putBackStale(folder: string, taking: string): Promise<void> {
    const now = Date.now();
    for (const name of await fs.readdir(taking)) {
      const [takenAt, , ...rest] = name.split('.');
      if (rest.length > 0 && now - Number(takenAt) > STALE_TAKE_MS)
        await move(path.join(taking, name), path.join(folder, rest.join('.')));
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}
