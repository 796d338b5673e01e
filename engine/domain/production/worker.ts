// The production side of the workers, in every worker process: the `produce-piece` jobs (produce.ts)
// and a loop that takes the provider's scan records and the print room's replies and records them
// (tracking.ts, reject.ts). Both keep their
// state where every process sees it (the piece, the job, the provider's folders), so any number of
// processes may run them and a kill -9 loses nothing: the job is taken again once its lease runs out,
// and a record a dead process took goes back to the inbox (outbox.ts).
import { PRODUCE_PIECE, type ProducePieceData } from '../../platform/jobs/names';
import type { Services } from '../services';
import { producePiece } from './produce';
import type { PrintProvider } from './provider';
import { recordScan, ScanRefused } from './tracking';
import { parseReply, rejectPiece } from './reject';
import type { TakenScan } from './provider';
import { pollLoop } from '../../base/poll-loop';

/** Records taken per pass; a full pass is followed at once by the next. */
const BATCH = 100;
/** A job stages a PDF and a ticket and commits one transition: seconds at the very most. */
const LEASE_MS = 30_000;

export interface ProductionWorkers {
  stop(): Promise<void>;
}

export async function startProduction(
  services: Services,
  provider: PrintProvider,
  options: { pollMs?: number; concurrency?: number } = {},
): Promise<ProductionWorkers> {
  const pollMs = options.pollMs ?? 500;
  const context = { ...services, provider };
  await services.jobs.work<ProducePieceData>(
    PRODUCE_PIECE,
    { concurrency: options.concurrency ?? 4, leaseMs: LEASE_MS },
    async (job) => {
      await producePiece(context, job.data);
    },
  );

  const log = (where: string, what: string, detail: Record<string, unknown>) => {
    if (services.config.logLevel !== 'silent')
      process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), where, what, ...detail })}\n`);
  };
  /** Applies each record taken; true when the batch was full (more may be waiting). */
  const drain = async (
    where: string,
    take: (max: number) => Promise<TakenScan[]>,
    apply: (record: unknown) => Promise<unknown>,
  ): Promise<boolean> => {
    const taken = await take(BATCH);
    for (const scan of taken) {
      try {
        await apply(JSON.parse(scan.text));
        await scan.done();
      } catch (error) {
        const reason =
          error instanceof ScanRefused
            ? error.message
            : error instanceof SyntaxError
              ? `not JSON: ${error.message}`
              : undefined;
        // anything else (the database away) leaves the record taken: it goes back to the inbox later
        if (reason === undefined) throw error;
        log(where, 'rejected', { record: scan.source, reason });
        await scan.reject(reason);
      }
    }
    return taken.length === BATCH;
  };
  const pass = async (): Promise<boolean> => {
    const scans = await drain(
      'tracking inbox',
      (max) => provider.takeScans(max),
      (r) => recordScan(services.objects, r),
    );
    const replies = await drain(
      'print room replies',
      (max) => provider.takeReplies(max),
      (r) => {
        const reply = parseReply(r);
        return rejectPiece(services.objects, reply.piece_id, reply.reason);
      },
    );
    return scans || replies;
  };

  return pollLoop(pass, { pollMs, onError: (error) => log('production', 'error', { error: String(error) }) });
}
