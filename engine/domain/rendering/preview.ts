// A template's preview drawn by the engine's own renderer, for the dashboard's editor: HTML (a version's,
// or the editor's unsaved text) merged and printed exactly as a piece's side is (artwork-pdf.ts's
// merge, asset inlining and browser), at the sheet size of a product and size from the catalog's one
// table (catalog/products.ts), with the side's ink-free zone (or a letter's address and return zones)
// drawn over it when asked, then its first page as a PNG by the thumbnail threads. An editor asks
// often, so each preview is bounded: the HTML's length and merge tags, one render timeout for all of
// it, and one preview at a time in a process with a short queue (past it: 503 with Retry-After).
import { ApiError } from '../../base/errors';
import { pdfLib } from '../../base/packages';
import { messageOf } from '../../base/thrown';
import {
  geometryOf,
  INK_FREE,
  LETTER_PAGES,
  POINTS_PER_INCH,
  type SideGeometry,
  type Zone,
} from '../../catalog/products';
import { assertMergeTagLimit } from '../../print/handlebars';
import { createRenderer, type Renderer } from '../../print/browser';
import { MergeThread } from '../../print/merge';
import { ThumbnailThreads } from '../../print/thumbnails';
import { inlineAssets } from '../../print/inline-assets';
import { assetFailure, RenderFailure } from '../../print/failure';
import type { EngineConfig } from '../../platform/config';

/** Longest HTML a preview takes (characters): an editor's page, not a file upload. */
export const PREVIEW_MAX_HTML = 200_000;
/** One preview, merge to PNG, at most (and never longer than RENDER_TIMEOUT_MS). */
export const PREVIEW_TIMEOUT_MS = 15_000;
/** Previews waiting behind the one being drawn, beyond which a request is turned away. */
const PREVIEW_QUEUE = 12;
/** Linked assets of one preview, all together. */
const ASSET_BYTES = 5 * 1_048_576;

/** The products a template can be previewed for, and their sizes, as the catalog declares them. */
export const PREVIEW_PRODUCTS: Record<string, readonly string[]> = {
  postcards: Object.keys(INK_FREE.postcards),
  self_mailers: Object.keys(INK_FREE.self_mailers),
  letters: Object.keys(LETTER_PAGES),
};

export interface PreviewRequest {
  html: string;
  kind: string;
  size: string;
  /** the artwork field of the side (`front`, `back`, `inside`, `outside`, `file`) */
  side: string;
  mergeVariables?: Record<string, unknown>;
  /** draw the ink-free zone (cards, mailers) or the address and return zones (letters) over it */
  zones?: boolean;
}

export interface Preview {
  png: Buffer;
  pdf: Uint8Array;
  /** the sheet drawn, inches (bleed included) */
  widthIn: number;
  heightIn: number;
  /** the zones drawn, inches from the top-left corner */
  zones: Zone[];
}

/** The side of the product the request names, or a 422 naming what is allowed. */
export function previewSide(kind: string, size: string, side: string): SideGeometry {
  const sizes = PREVIEW_PRODUCTS[kind];
  if (!sizes) throw new ApiError('invalid', `product must be one of ${Object.keys(PREVIEW_PRODUCTS).join(', ')}`, 422);
  if (!sizes.includes(size)) throw new ApiError('invalid', `size of ${kind} must be one of ${sizes.join(', ')}`, 422);
  const sides = geometryOf(kind, size).sides;
  const found = sides.find((s) => s.field === side);
  if (!found)
    throw new ApiError('invalid', `side of ${kind} must be one of ${sides.map((s) => s.field).join(', ')}`, 422);
  return found;
}

const zonesOf = (side: SideGeometry): Zone[] =>
  side.inkFree ? [side.inkFree] : [side.addressZone, side.returnZone].filter((z): z is Zone => z !== undefined);

/** Draws each zone on the first page: a translucent fill and a dashed border, as the vendor's templates mark it. */
async function drawZones(pdf: Uint8Array, side: SideGeometry, zones: Zone[]): Promise<Uint8Array> {
  const { PDFDocument, rgb } = pdfLib();
  const doc = await PDFDocument.load(pdf);
  const page = doc.getPage(0);
  for (const zone of zones) {
    const box = {
      x: zone.x * POINTS_PER_INCH,
      y: (side.height - zone.y - zone.height) * POINTS_PER_INCH,
      width: zone.width * POINTS_PER_INCH,
      height: zone.height * POINTS_PER_INCH,
    };
    page.drawRectangle({
      ...box,
      color: rgb(1, 0.85, 0.2),
      opacity: 0.45,
      borderColor: rgb(0.75, 0.1, 0.1),
      borderWidth: 1.5,
      borderDashArray: [6, 4],
      borderOpacity: 1,
    });
    page.drawText('Ink-free: address and postage', {
      x: box.x + 6,
      y: box.y + box.height - 14,
      size: 9,
      color: rgb(0.55, 0.05, 0.05),
    });
  }
  return doc.save();
}

/** Rejects after `ms` with a render failure, unless `work` settles first. */
async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RenderFailure('render_timeout', `the preview took over ${ms} ms`, '')), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface PreviewParts {
  browser: Renderer;
  merging: MergeThread;
  thumbnails: ThumbnailThreads;
  allowedNetworks: ReadonlySet<string>;
  timeoutMs: number;
}

/**
 * Draws previews one at a time on parts of its own (they start with the first preview and stop when
 * idle, like the workers'), so an editor never waits behind a campaign's renders, nor they behind it.
 */
export class Previewer {
  private chain: Promise<unknown> = Promise.resolve();
  private waiting = 0;

  constructor(private readonly parts: PreviewParts) {}

  async preview(request: PreviewRequest): Promise<Preview> {
    if (request.html.length > PREVIEW_MAX_HTML)
      throw new ApiError('invalid', `html is longer than ${PREVIEW_MAX_HTML.toLocaleString('en-US')} characters`, 422);
    assertMergeTagLimit(request.html, 'html');
    const side = previewSide(request.kind, request.size, request.side);
    if (this.waiting >= PREVIEW_QUEUE)
      throw new ApiError('busy', 'Previews are busy; try again in a moment.', 503, { 'Retry-After': '2' });
    this.waiting++;
    const turn = this.chain.then(() => within(this.draw(request, side), this.parts.timeoutMs));
    this.chain = turn.catch(() => undefined);
    try {
      return await turn;
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // the design cannot be drawn: said as a 422 the editor shows, never a server error
      const message = error instanceof RenderFailure ? `${error.code}: ${error.message}` : messageOf(error);
      throw new ApiError('invalid_template_html', `the preview could not be drawn: ${message}`, 422);
    } finally {
      this.waiting--;
    }
  }

  private async draw(request: PreviewRequest, side: SideGeometry): Promise<Preview> {
    const { timeoutMs } = this.parts;
    const merged = await this.parts.merging.merge(
      { html: request.html, variables: request.mergeVariables ?? {} },
      timeoutMs,
    );
    const inlined = await inlineAssets(merged, {
      maxTotalBytes: ASSET_BYTES,
      allowedNetworks: this.parts.allowedNetworks,
    });
    if (inlined.failures.length > 0) throw assetFailure(inlined.failures[0]);
    const printed = await this.parts.browser.htmlToPdf({
      html: inlined.html,
      widthIn: side.width,
      heightIn: side.height,
      maxPages: 1,
      timeoutMs,
    });
    const zones = request.zones ? zonesOf(side) : [];
    const pdf = zones.length > 0 ? await drawZones(printed, side, zones) : printed;
    const [first] = await this.parts.thumbnails.thumbnails(pdf);
    return { png: first.large, pdf, widthIn: side.width, heightIn: side.height, zones };
  }

  async close(): Promise<void> {
    await Promise.all([this.parts.browser.close(), this.parts.merging.close(), this.parts.thumbnails.close()]);
  }
}

/** A previewer on parts of its own, none started until the first preview, each stopped when idle. */
export function createPreviewer(config: EngineConfig): Previewer {
  const idleMs = config.renderIdleMs;
  const timeoutMs = Math.min(PREVIEW_TIMEOUT_MS, config.renderTimeoutMs);
  return new Previewer({
    browser: createRenderer({ chromiumPath: config.chromiumPath, pages: 1, idleMs }),
    merging: new MergeThread(idleMs),
    thumbnails: new ThumbnailThreads(2 * timeoutMs, 1, idleMs),
    allowedNetworks: config.allowedPrivateNetworks,
    timeoutMs,
  });
}
