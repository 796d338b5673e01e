// Why a render failed for good, as the piece's failure_reason says it: the design times out, an asset
// it names is refused, the renderer cannot run, the file is unreadable. The browser's, the merge
// thread's and the asset inliner's own errors become one of these here, beside them; anything else
// (a crashed browser, a lost connection) stays as it is and the job runner retries it.
import { RenderFailed, RendererUnavailable, RenderTimeout } from './browser/errors';
import { MergeFailed } from './merge';
import { describeAssetFailure, type AssetFailure } from './inline-assets';

/** A piece's failure_reason (spec: failure_reason {failure_reason, remediation, errors}). */
export interface FailureReason {
  failure_reason: string;
  remediation: string;
  errors: null;
}

export class RenderFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly remediation: string,
  ) {
    super(message);
  }

  toReason(): FailureReason {
    return { failure_reason: `${this.code}: ${this.message}`, remediation: this.remediation, errors: null };
  }
}

/** A merge thread's error as the piece's failure; other errors pass as they are. */
export function mergeFailure(error: unknown): unknown {
  if (!(error instanceof MergeFailed)) return error;
  if (error.reason === 'timeout')
    return new RenderFailure(
      'render_timeout',
      error.message,
      'Simplify the artwork: nested {{#each}} blocks over long lists multiply into very large pages.',
    );
  return new RenderFailure(
    'merge_failed',
    `the artwork could not be merged: ${error.message}`,
    'Check the {{variables}} and helpers the HTML uses.',
  );
}

/** The browser's error as the piece's failure; a crash (retried by the job runner) passes as it is. */
export function browserFailure(error: unknown): unknown {
  if (error instanceof RenderTimeout)
    return new RenderFailure(
      'render_timeout',
      error.message,
      'Simplify the artwork: very large documents or tables take too long to lay out.',
    );
  if (error instanceof RendererUnavailable)
    return new RenderFailure('renderer_unavailable', error.message, 'The operator must install or configure Chromium.');
  if (error instanceof RenderFailed)
    return new RenderFailure('render_failed', error.message, 'Check the artwork HTML.');
  return error;
}

/** An asset the artwork links that could not be inlined. */
export const assetFailure = (failure: AssetFailure): RenderFailure =>
  new RenderFailure(
    'asset_fetch_failed',
    describeAssetFailure(failure),
    'Host every image, font and stylesheet the HTML links on a public http(s) address, 5 MB in all.',
  );
