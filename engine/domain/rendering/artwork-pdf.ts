// One artwork side as PDF pages, the render path of a side in one place: HTML (inline, from a template
// version or an HTML file) is merged on the merge thread, its linked assets are fetched behind the
// SSRF guard and inlined, and the browser draws it at the side's exact size; an uploaded PDF passes as
// it is (the composer sets its pages onto the exact sheet); a PNG or JPEG fills one page, bleed
// included. Each part's own errors become the piece's failure beside them (print/failure.ts).
import { createHash } from 'node:crypto';
import { templateVersions } from '../../catalog/templates';
import { pdfLib } from '../../base/packages';
import type { Scope } from '../../store/objects';
import type { ArtworkSource } from '../pieces/artwork';
import { POINTS_PER_INCH } from '../../catalog/products';
import { inlineAssets } from '../../print/inline-assets';
import { assetFailure, browserFailure, mergeFailure, RenderFailure } from '../../print/failure';
import type { RenderContext } from './context';

/** Linked assets of one artwork, all together (spec: at most 5 MB). */
const ASSET_BYTES = 5 * 1_048_576;

export interface MergeRequest {
  html: string;
  variables: Record<string, unknown>;
  /** a template version's id: its compiled form is kept */
  cacheKey?: string;
  /** plain text the overlay draws (a check's message): merged without HTML escaping */
  text?: boolean;
}

export interface SideRequest {
  source: ArtworkSource;
  widthIn: number;
  heightIn: number;
  maxPages: number;
  mergeVariables: Record<string, unknown>;
}

/**
 * Inline artwork is compiled once per distinct text too (a campaign or an integration sends the same
 * HTML with other variables): keyed by its digest, apart from template versions' ids and by mode.
 */
const inlineKey = (request: MergeRequest) =>
  `${request.text ? 'text' : 'html'}:${createHash('sha256').update(request.html).digest('base64url')}`;

/** Handlebars merge on the merge thread (missing variables empty: strict accounts were refused at create). */
export async function mergeArtwork(context: RenderContext, request: MergeRequest): Promise<string> {
  try {
    const keyed = { ...request, cacheKey: request.cacheKey ?? inlineKey(request) };
    return await context.merging.merge(keyed, context.limits.renderTimeoutMs);
  } catch (error) {
    throw mergeFailure(error);
  }
}

/** Merged HTML drawn by the browser, its linked assets inlined first (the page itself fetches nothing). */
async function drawHtml(context: RenderContext, html: string, request: SideRequest): Promise<Uint8Array> {
  const inlined = await inlineAssets(html, {
    maxTotalBytes: ASSET_BYTES,
    allowedNetworks: context.limits.allowedNetworks,
  });
  if (inlined.failures.length > 0) throw assetFailure(inlined.failures[0]);
  try {
    return await context.browser.htmlToPdf({
      html: inlined.html,
      widthIn: request.widthIn,
      heightIn: request.heightIn,
      maxPages: request.maxPages,
      timeoutMs: context.limits.renderTimeoutMs,
    });
  } catch (error) {
    throw browserFailure(error);
  }
}

/** An uploaded or fetched file: from the asset store, or (pieces from before it kept them) its row. */
async function blobOf(context: RenderContext, scope: Scope, id: string): Promise<Buffer> {
  const gone = () => new RenderFailure('missing_file', `the uploaded file ${id} is gone`, 'Create the piece again.');
  const blob = await context.store.blobs.readBlob(scope, id);
  if (!blob) throw gone();
  if ('bytes' in blob) return blob.bytes;
  // pdf-lib and the merge take the whole file, so it is read whole here, once
  const asset = await context.assets.get(blob.assetKey);
  if (!asset) throw gone();
  return asset.bytes;
}

async function templateHtml(context: RenderContext, scope: Scope, versionId: string): Promise<string> {
  const version = await context.objects.get(scope, templateVersions.name, versionId, { includeDeleted: true });
  if (!version || typeof version.html !== 'string')
    throw new RenderFailure('missing_template', `template version ${versionId} is gone`, 'Create the piece again.');
  return version.html;
}

async function imagePage(bytes: Buffer, png: boolean, request: SideRequest): Promise<Uint8Array> {
  const out = await pdfLib().PDFDocument.create();
  // pdf-lib reads a JPEG through `bytes.buffer` from offset 0, and a small Buffer is a view into Node's
  // shared pool ("SOI not found in JPEG"): it gets an array of its own.
  const own = new Uint8Array(bytes);
  const image = png ? await out.embedPng(own) : await out.embedJpg(own);
  const width = request.widthIn * POINTS_PER_INCH;
  const height = request.heightIn * POINTS_PER_INCH;
  out.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  return out.save();
}

export async function sidePdf(context: RenderContext, scope: Scope, request: SideRequest): Promise<Uint8Array> {
  const { source } = request;
  const html = async (text: string, cacheKey?: string) =>
    drawHtml(
      context,
      await mergeArtwork(context, { html: text, variables: request.mergeVariables, cacheKey }),
      request,
    );
  if (source.kind === 'html') return html(source.html);
  if (source.kind === 'template') return html(await templateHtml(context, scope, source.version_id), source.version_id);
  if (source.kind === 'url')
    throw new RenderFailure(
      'invalid_file_url',
      `remote artwork ${source.url} was not fetched when the piece was created`,
      'Create the piece again.',
    );
  const bytes = await blobOf(context, scope, source.blob_id);
  if (source.content_type === 'text/html') return html(bytes.toString('utf8'));
  if (source.content_type === 'image/png' || source.content_type === 'image/jpeg')
    return imagePage(bytes, source.content_type === 'image/png', request);
  // A PDF was checked at create (readable, the side's size or its trim size); the composer sets each
  // page onto the exact sheet, so it is passed on as it came.
  return bytes;
}
