// Rendering one piece's PDF, the render job's whole work: read what create recorded (piece_inputs),
// give the piece its IMb codes (imb-codes.ts: a live piece without the operator's USPS identity waits
// here, before anything is drawn), draw each artwork side at the product's size, lay the engine's own
// marks on it (address block, IMb, postage, check face), store the file, then settle the piece in one
// transition, with its `imb`, that also queues its
// thumbnails (render-thumbnails.ts), so `rendered` and its `url` never wait for them, and, for a live
// piece, its production (engine/domain/production).
// Running it twice for one piece (a retry after a crash) writes the same file and settles once.
import { findResource } from '../../catalog';
import type { Resource } from '../../catalog/types';
import type { ApiObject, Scope } from '../../store/objects';
import { pdfKey } from '../../platform/assets/links';
import { geometryOf, letterPageLimit } from '../../catalog/products';
import { composePiece, type ComposeInput, type PieceKind } from '../../print/overlay/compose';
import { overlayPiece } from '../../print/overlay/types';
import { RenderFailure } from '../../print/failure';
import { RENDER_THUMBNAILS, type RenderThumbnailsData } from '../../platform/jobs/names';
import { isAbroad } from '../../catalog/mailpieces/rules';
import { mergeArtwork, sidePdf } from './artwork-pdf';
import { markFailed, markRendered } from './outcome';
import { artworkFileKeys, discardIfCancelled } from '../pieces/piece-files';
import { produceJob } from '../production/produce';
import type { RenderContext } from './context';
import type { MadeFrom } from '../../store/piece-inputs';
import type { UspsIdentity } from '../../catalog/usps-identity';
import { codesForRender, holdForRender, releaseRenderHold } from './imb-codes';
import { messageOf } from '../../base/thrown';
import { isPlainObject } from '../../base/records';

export type RenderResult = 'rendered' | 'failed' | 'skipped' | 'held';

function maxPagesOf(resource: Resource, piece: ApiObject): number {
  if (resource.name === 'letters') return letterPageLimit(isAbroad(piece), piece.double_sided !== false);
  if (resource.name === 'checks') return letterPageLimit(false, true);
  return 1;
}

export interface PieceOfJob {
  scope: Scope;
  resource: Resource;
  piece: ApiObject;
  inputs: StoredInputs;
}

/** The live piece a job names, with what its create recorded; undefined when there is none. */
export async function pieceOfJob(tools: RenderContext, pieceId: string): Promise<PieceOfJob | undefined> {
  const recorded = await tools.store.pieceInputs.readPieceInputs(pieceId);
  if (!recorded) return undefined;
  const { scope } = recorded;
  const resource = findResource(recorded.kind);
  if (!resource?.mailpiece) return undefined;
  const piece = await tools.objects.get(scope, resource.name, pieceId);
  // written by create in this shape (engine/domain/pieces/create.ts) and read only here
  return piece ? { scope, resource, piece, inputs: recorded.inputs } : undefined;
}

export async function renderPiece(
  tools: RenderContext,
  pieceId: string,
  options: { lastAttempt: boolean; signal?: AbortSignal } = { lastAttempt: true },
): Promise<RenderResult> {
  const { signal } = options;
  const found = await pieceOfJob(tools, pieceId);
  if (!found || found.piece.status !== 'processed') {
    await releaseRenderHold(tools, pieceId);
    return 'skipped';
  }
  const { scope, resource, piece, inputs } = found;
  try {
    const codes = await codesForRender(tools, scope, resource, piece);
    if ('hold' in codes) {
      await holdForRender(tools, scope, resource, pieceId, codes.hold);
      return 'held';
    }
    const numbered = codes.trackingNumber ? { tracking_number: codes.trackingNumber } : {};
    const drawn = { ...piece, imb: codes.imb, ...numbered };
    const url = await drawAndStore(tools, scope, resource, drawn, inputs, codes.usps, signal);
    signal?.throwIfAborted();
    const rendered = await markRendered(tools.objects, scope, resource, pieceId, {
      url,
      imb: codes.imb,
      ...numbered,
      thumbnailsJob:
        tools.limits.thumbnails === false
          ? undefined
          : tools.jobs.enqueueWith(RENDER_THUMBNAILS, { piece: pieceId } satisfies RenderThumbnailsData),
      // test pieces never go to production (spec), unless a simulation takes them
      productionJob: scope.mode === 'live' ? produceJob(tools.jobs, scope, resource, piece) : undefined,
    });
    if (piece.production_hold) await releaseRenderHold(tools, pieceId);
    if (rendered) return 'rendered';
    await discardIfCancelled(tools.objects, tools.assets, scope, resource, pieceId, [url]);
    return 'skipped';
  } catch (error) {
    // a handler whose lease ran out settles nothing: the job's next attempt owns the piece
    if (signal?.aborted) throw error;
    if (!(error instanceof RenderFailure) && !options.lastAttempt) throw error;
    const failure =
      error instanceof RenderFailure
        ? error
        : new RenderFailure(
            'render_error',
            `rendering failed after every retry: ${messageOf(error)}`,
            'Create the piece again; if it keeps failing, check the engine log.',
          );
    if (!(await markFailed(tools.objects, scope, resource, pieceId, failure.toReason()))) return 'skipped';
    if (piece.production_hold) await releaseRenderHold(tools, pieceId);
    // a failed piece is final and nothing reads its artwork again; the failure stands if a file cannot
    // be removed now (a retried job would find the piece settled and never come back for it)
    await tools.assets.delete(artworkFileKeys(resource, pieceId)).catch((removal: unknown) => {
      process.stderr.write(`render ${pieceId}: its artwork files were not all removed: ${String(removal)}\n`);
    });
    return 'failed';
  }
}

/** The piece with the printed text fields that take merge variables (a check's message) merged. */
async function withMergedText(tools: RenderContext, resource: Resource, piece: ApiObject): Promise<ApiObject> {
  const variables = isPlainObject(piece.merge_variables) ? piece.merge_variables : {};
  const merged: ApiObject = { ...piece };
  for (const field of resource.mailpiece?.mergedText ?? []) {
    const text = piece[field];
    if (typeof text === 'string') merged[field] = await mergeArtwork(tools, { html: text, variables, text: true });
  }
  return merged;
}

type StoredInputs = MadeFrom;

async function drawAndStore(
  tools: RenderContext,
  scope: Scope,
  resource: Resource,
  piece: ApiObject,
  inputs: StoredInputs,
  usps: UspsIdentity | undefined,
  signal?: AbortSignal,
): Promise<string> {
  const geometry = geometryOf(resource.name, String(piece.size ?? ''), String(piece.address_placement ?? ''));
  const mergeVariables = isPlainObject(piece.merge_variables) ? piece.merge_variables : {};
  const maxPages = maxPagesOf(resource, piece);
  const sides: Record<string, Uint8Array> = {};
  await Promise.all(
    geometry.sides.map(async (side) => {
      const source = inputs.artwork[side.field];
      if (!source) return;
      const request = { source, widthIn: side.width, heightIn: side.height, maxPages, mergeVariables };
      sides[side.field] = await sidePdf(tools, scope, request);
    }),
  );
  const merged = await withMergedText(tools, resource, piece);
  const compose = (input: ComposeInput) => (tools.composing ? tools.composing.compose(input) : composePiece(input));
  const pdf = await compose({
    kind: resource.name as PieceKind,
    size: geometry.size,
    piece: overlayPiece(merged),
    sides,
    geometry,
    usps,
    // test pieces are marked as samples throughout (a live one is drawn only with the identity)
    sample: scope.mode !== 'live',
  });
  const url = pdfKey(resource, piece.id);
  signal?.throwIfAborted();
  await tools.assets.put(url, pdf, 'application/pdf');
  return url;
}
