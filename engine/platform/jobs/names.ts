// The engine's jobs by name, with the data each carries: the code that enqueues one and the worker
// that does it meet here rather than importing each other.
import type { JobOptions } from './types';

export const RENDER_PIECE = 'render-piece';

/** Attempts that render; a failure in the last one fails the piece (the worker settles it). */
export const RENDER_ATTEMPTS = 3;

/**
 * One attempt more than those that render: it is only reached when the last rendering attempt lost its
 * lease (its process was killed, or it outlived the lease), and it fails the piece rather than leaving
 * it `processed` for ever.
 */
export const RENDER_PIECE_OPTIONS: JobOptions = { retryLimit: RENDER_ATTEMPTS };

export interface RenderPieceData {
  piece: string;
}

/** Queued when a piece becomes `rendered`: its thumbnails, drawn from the stored PDF. */
export const RENDER_THUMBNAILS = 'render-thumbnails';

export type RenderThumbnailsData = RenderPieceData;

/** Delivers one webhook's due events in order (singleton per webhook: one receiver, one job at a time). */
export const DELIVER_WEBHOOK = 'deliver-webhook';

export interface DeliverWebhookData {
  webhook: string;
}

/**
 * Queued when a live piece becomes `rendered`, to run once its cancellation window (or send_date) has
 * passed: it sends the piece to production (engine/domain/production). Retried from the top after a
 * crash: the piece's own state says what is left to do.
 */
export const PRODUCE_PIECE = 'produce-piece';

export interface ProducePieceData {
  piece: string;
  kind: string;
  account: string;
}

/** A failing print provider (an unwritable outbox) is retried with backoff for well over an hour. */
export const PRODUCE_PIECE_OPTIONS: JobOptions = { retryLimit: 10, retryDelayMs: 5_000 };

/**
 * One run of a campaign (engine/domain/campaigns/run.ts): queued in the commit that creates the run. It
 * records each recipient with its piece, so an attempt after a crash, or a second process holding the
 * same job, makes only the pieces still missing.
 */
export const CAMPAIGN_RUN = 'campaign-run';

export interface CampaignRunData {
  run: string;
  campaign: string;
  account: string;
  mode: 'test' | 'live';
}

export const CAMPAIGN_RUN_OPTIONS: JobOptions = { retryLimit: 5, retryDelayMs: 2_000 };

/**
 * Removes files of objects already gone (a deleted campaign's cancelled pieces): queued once the delete
 * has committed, so a delete of thousands of pieces answers without waiting for their files.
 */
export const REMOVE_FILES = 'remove-files';

export interface RemoveFilesData {
  keys: string[];
}

export const REMOVE_FILES_OPTIONS: JobOptions = { retryLimit: 5, retryDelayMs: 5_000 };
