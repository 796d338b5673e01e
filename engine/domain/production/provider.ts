// The print provider: where a live piece goes to be printed and mailed, and where the carrier's scans
// of it come back from. One small interface, so the default (outbox.ts: folders an in-house print
// room shares with the engine) and a remote printer's API are interchangeable.
//
// Production is decided by the piece's own state, not by the provider: a job is staged first, the
// piece is then claimed by one compare-and-set transition naming that job's ticket, and only the
// claimed job is released. Staged jobs of lost claims (another process won, or a crash came before
// the claim) are discarded. A provider therefore never decides anything; it must only make `release`
// safe to call again, by anyone, after a crash at any point.
import type { JobTicket } from './ticket';

export interface PrintJob {
  ticket: JobTicket;
  /** the print-ready PDF, as the renderer stored it */
  pdf: Uint8Array;
}

/** A scan record taken from the provider: it is settled by `done` or `reject`, once. */
export interface TakenScan {
  /** where it came from, for messages (a file name) */
  source: string;
  /** the record as received */
  text: string;
  done(): Promise<void>;
  reject(reason: string): Promise<void>;
}

export interface PrintProvider {
  /** where it sends production, for the start banner and messages */
  readonly label: string;
  /** Makes `job` durable under its ticket id, without handing it over; resolves once it is. */
  stage(job: PrintJob): Promise<void>;
  /**
   * Hands over the job staged under `ticketId` (produced on `date`, an ISO instant). It happens at
   * most once: a job no longer staged was handed over already, and a second call does nothing.
   */
  release(pieceId: string, ticketId: string, date: string): Promise<void>;
  /** Drops every job staged for `pieceId` except `keep` (a claim lost, a crash before the claim). */
  discardOthers(pieceId: string, keep?: string): Promise<void>;
  /** Up to `max` scan records waiting, each taken by one caller only, even across processes. */
  takeScans(max: number): Promise<TakenScan[]>;
  /** Up to `max` replies of the print room (rejections, reject.ts), taken as scan records are. */
  takeReplies(max: number): Promise<TakenScan[]>;
}
