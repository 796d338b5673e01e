// Rendering one piece, the job's whole work: read what create recorded (piece_inputs), draw each
// artwork side at the product's size, lay the engine's own marks on it (address block, IMb, postage,
// check face), rasterize thumbnails, store the files, then settle the piece in one transition.
// Running it twice for one piece (a retry after a crash) writes the same files and settles once.
import type { Knex } from 'knex';
import { findResource } from '../../catalog';
import type { Resource } from '../../catalog/types';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import type { AssetStore } from '../../assets/store';
import { pdfKey, thumbnailKey, THUMBNAIL_SIZES } from '../../assets/links';
import { geometryOf, letterPageLimit, type ProductGeometry } from '../../render/products';
import type { ArtworkSource } from '../pieces/artwork';
import { isAbroad } from '../../catalog/mailpieces/rules';
import { sidePdf, type HtmlRender } from './artwork-pdf';
import { markFailed, markRendered } from './outcome';
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
  compose(request: ComposeRequest): Promise<Uint8Array>;
  thumbnails(pdf: Uint8Array): Promise<PageThumbnails[]>;
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

export async function renderPiece(
  tools: RenderTools,
  pieceId: string,
  options: { lastAttempt: boolean } = { lastAttempt: true },
): Promise<RenderResult> {
  const row = (await tools.knex('piece_inputs').where({ piece_id: pieceId }).first()) as InputsRow | undefined;
  if (!row) return 'skipped';
  const scope: Scope = { accountId: row.account_id, mode: row.mode as Scope['mode'] };
  const resource = findResource(row.kind);
  if (!resource?.mailpiece) return 'skipped';
  const piece = await tools.objects.get(scope, resource.name, pieceId);
  if (!piece || piece.status !== 'processed') return 'skipped';
  try {
    const files = await drawAndStore(tools, scope, resource, piece, JSON.parse(row.inputs) as StoredInputs);
    return (await markRendered(tools.objects, scope, resource, pieceId, files)) ? 'rendered' : 'skipped';
  } catch (error) {
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

interface StoredInputs {
  artwork: Record<string, ArtworkSource>;
}

async function drawAndStore(
  tools: RenderTools,
  scope: Scope,
  resource: Resource,
  piece: ApiObject,
  inputs: StoredInputs,
): Promise<{ url: string; thumbnails: Record<string, string>[] }> {
  const geometry = geometryOf(resource.name, String(piece.size ?? ''), String(piece.address_placement ?? ''));
  const context = {
    knex: tools.knex,
    objects: tools.objects,
    scope,
    mergeVariables: (piece.merge_variables ?? {}) as Record<string, unknown>,
    renderHtml: tools.renderHtml,
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
  const pdf = await tools.compose({ resource, piece, geometry, sides });
  const pages = await tools.thumbnails(pdf);
  const url = pdfKey(resource, piece.id);
  const thumbnails = pages.map((_, i) =>
    Object.fromEntries(THUMBNAIL_SIZES.map((size) => [size, thumbnailKey(resource, piece.id, size, i + 1)])),
  );
  await tools.assets.put(url, pdf, 'application/pdf');
  await Promise.all(
    pages.flatMap((page, i) =>
      THUMBNAIL_SIZES.map((size) => tools.assets.put(thumbnails[i][size], page[size], 'image/png')),
    ),
  );
  return { url, thumbnails };
}
