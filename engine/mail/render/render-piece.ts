// Rendering one piece's PDF, the render job's whole work: read what create recorded (piece_inputs),
// draw each artwork side at the product's size, lay the engine's own marks on it (address block, IMb,
// postage, check face), store the file, then settle the piece in one transition that also queues its
// thumbnails (render-thumbnails.ts), so `rendered` and its `url` never wait for them.
// Running it twice for one piece (a retry after a crash) writes the same file and settles once.
import type { Knex } from 'knex';
import { findResource } from '../../catalog';
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import type { ExtraWrite } from '../../store/insert-batcher';
import type { AssetStore } from '../../assets/store';
import { pdfKey } from '../../assets/links';
import { geometryOf, letterPageLimit, type ProductGeometry } from '../../render/products';
import type { ArtworkSource } from '../pieces/artwork';
import { isAbroad } from '../../catalog/mailpieces/rules';
import { sidePdf, type HtmlRender, type MergeRequest } from './artwork-pdf';
import { markFailed, markRendered } from './outcome';
import { discardIfCancelled } from '../pieces/piece-files';
import { RenderFailure } from './failure';

export interface PageThumbnails {
  small: Uint8Array;
  medium: Uint8Array;
  large: Uint8Array;
}

export interface ComposeRequest {
  resource: Resource;
  piece: ApiObject;
  geometry: ProductGeometry;
  /** the artwork PDF of each side that has one, by field */
  sides: Record<string, Uint8Array>;
}

/** What rendering needs from outside the database: the browser, the overlay, the rasterizer, the files. */
export interface RenderTools {
  knex: Knex;
  objects: ObjectStore;
  assets: AssetStore;
  renderHtml(request: HtmlRender): Promise<Uint8Array>;
  mergeHtml(request: MergeRequest): Promise<string>;
  compose(request: ComposeRequest): Promise<Uint8Array>;
  thumbnails(pdf: Uint8Array): Promise<PageThumbnails[]>;
  /** the thumbnails job of a piece, to commit with its `rendered` transition */
  thumbnailsJob(pieceId: string): ExtraWrite;
}

interface InputsRow {
  account_id: string;
  mode: string;
  kind: string;
  inputs: string;
}

export type RenderResult = 'rendered' | 'failed' | 'skipped';

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
export async function pieceOfJob(tools: RenderTools, pieceId: string): Promise<PieceOfJob | undefined> {
  const row = (await tools.knex('piece_inputs').where({ piece_id: pieceId }).first()) as InputsRow | undefined;
  if (!row) return undefined;
  const scope: Scope = { accountId: row.account_id, mode: row.mode as Scope['mode'] };
  const resource = findResource(row.kind);
  if (!resource?.mailpiece) return undefined;
  const piece = await tools.objects.get(scope, resource.name, pieceId);
  return piece ? { scope, resource, piece, inputs: JSON.parse(row.inputs) as StoredInputs } : undefined;
}

export async function renderPiece(
  tools: RenderTools,
  pieceId: string,
  options: { lastAttempt: boolean; signal?: AbortSignal } = { lastAttempt: true },
): Promise<RenderResult> {
  const { signal } = options;
  const found = await pieceOfJob(tools, pieceId);
  if (!found || found.piece.status !== 'processed') return 'skipped';
  const { scope, resource, piece, inputs } = found;
  try {
    const url = await drawAndStore(tools, scope, resource, piece, inputs, signal);
    signal?.throwIfAborted();
    const rendered = await markRendered(tools.objects, scope, resource, pieceId, {
      url,
      thumbnailsJob: tools.thumbnailsJob(pieceId),
    });
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
            `rendering failed after every retry: ${String((error as Error)?.message ?? error)}`,
            'Create the piece again; if it keeps failing, check the engine log.',
          );
    return (await markFailed(tools.objects, scope, resource, pieceId, failure.toReason())) ? 'failed' : 'skipped';
  }
}

/** The piece with the printed text fields that take merge variables (a check's message) merged. */
async function withMergedText(tools: RenderTools, resource: Resource, piece: ApiObject): Promise<ApiObject> {
  const variables = (piece.merge_variables ?? {}) as Record<string, unknown>;
  const merged: ApiObject = { ...piece };
  for (const field of resource.mailpiece?.mergedText ?? []) {
    const text = piece[field];
    if (typeof text === 'string') merged[field] = await tools.mergeHtml({ html: text, variables, text: true });
  }
  return merged;
}

interface StoredInputs {
  artwork: Record<string, ArtworkSource>;
}

async function drawAndStore(
  tools: RenderTools,
  scope: Scope,
  resource: Resource,
  piece: ApiObject,
  inputs: StoredInputs,
  signal?: AbortSignal,
): Promise<string> {
  const geometry = geometryOf(resource.name, String(piece.size ?? ''), String(piece.address_placement ?? ''));
  const context = {
    knex: tools.knex,
    objects: tools.objects,
    scope,
    mergeVariables: (piece.merge_variables ?? {}) as Record<string, unknown>,
    renderHtml: tools.renderHtml,
    mergeHtml: tools.mergeHtml,
  };
  const maxPages = maxPagesOf(resource, piece);
  const sides: Record<string, Uint8Array> = {};
  await Promise.all(
    geometry.sides.map(async (side) => {
      const source = inputs.artwork[side.field];
      if (!source) return;
      sides[side.field] = await sidePdf(context, { source, widthIn: side.width, heightIn: side.height, maxPages });
    }),
  );
  const pdf = await tools.compose({ resource, piece: await withMergedText(tools, resource, piece), geometry, sides });
  const url = pdfKey(resource, piece.id);
  signal?.throwIfAborted();
  await tools.assets.put(url, pdf, 'application/pdf');
  return url;
}
