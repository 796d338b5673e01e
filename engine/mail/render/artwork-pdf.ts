// One artwork side as PDF pages: HTML (inline, from a template version or an HTML file) is merged and
// drawn by the browser at the side's exact size; an uploaded PDF passes as it is (the composer sets its
// pages onto the exact sheet); a PNG or JPEG fills one page, bleed included.
import { PDFDocument } from 'pdf-lib';
import type { Knex } from 'knex';
import { templateVersions } from '../../catalog/templates';
import type { ObjectStore, Scope } from '../../store/objects';
import type { ArtworkSource } from '../pieces/artwork';
import { POINTS_PER_INCH } from '../../render/products';
import { RenderFailure } from './failure';

export interface HtmlRender {
  html: string;
  widthIn: number;
  heightIn: number;
  maxPages: number;
}

export interface SideContext {
  knex: Knex;
  objects: ObjectStore;
  scope: Scope;
  mergeVariables: Record<string, unknown>;
  /** merges and renders HTML to PDF (the browser pool, with remote assets inlined) */
  renderHtml(request: HtmlRender): Promise<Uint8Array>;
  /** Handlebars merge (missing variables empty; strict accounts were refused at create); throws RenderFailure */
  mergeHtml(request: MergeRequest): Promise<string>;
}

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
}

async function blobOf(knex: Knex, scope: Scope, id: string): Promise<Buffer> {
  const row = (await knex('blobs')
    .select('bytes')
    .where({ id, account_id: scope.accountId, mode: scope.mode })
    .first()) as { bytes: Buffer } | undefined;
  if (!row) throw new RenderFailure('missing_file', `the uploaded file ${id} is gone`, 'Create the piece again.');
  return Buffer.from(row.bytes);
}

async function templateHtml(context: SideContext, versionId: string): Promise<string> {
  const version = await context.objects.get(context.scope, templateVersions.name, versionId, { includeDeleted: true });
  if (!version || typeof version.html !== 'string')
    throw new RenderFailure('missing_template', `template version ${versionId} is gone`, 'Create the piece again.');
  return version.html;
}

async function imagePage(bytes: Buffer, png: boolean, request: SideRequest): Promise<Uint8Array> {
  const out = await PDFDocument.create();
  // pdf-lib reads a JPEG through `bytes.buffer` from offset 0, and a small Buffer is a view into Node's
  // shared pool ("SOI not found in JPEG"): it gets an array of its own.
  const own = new Uint8Array(bytes);
  const image = png ? await out.embedPng(own) : await out.embedJpg(own);
  const width = request.widthIn * POINTS_PER_INCH;
  const height = request.heightIn * POINTS_PER_INCH;
  out.addPage([width, height]).drawImage(image, { x: 0, y: 0, width, height });
  return out.save();
}

export async function sidePdf(context: SideContext, request: SideRequest): Promise<Uint8Array> {
  const { source } = request;
  const html = async (text: string, cacheKey?: string) =>
    context.renderHtml({
      html: await context.mergeHtml({ html: text, variables: context.mergeVariables, cacheKey }),
      widthIn: request.widthIn,
      heightIn: request.heightIn,
      maxPages: request.maxPages,
    });
  if (source.kind === 'html') return html(source.html);
  if (source.kind === 'template') return html(await templateHtml(context, source.version_id), source.version_id);
  if (source.kind === 'url')
    throw new RenderFailure(
      'invalid_file_url',
      `remote artwork ${source.url} was not fetched when the piece was created`,
      'Create the piece again.',
    );
  const bytes = await blobOf(context.knex, context.scope, source.blob_id);
  if (source.content_type === 'text/html') return html(bytes.toString('utf8'));
  if (source.content_type === 'image/png' || source.content_type === 'image/jpeg')
    return imagePage(bytes, source.content_type === 'image/png', request);
  // A PDF was checked at create (readable, the side's size or its trim size); the composer sets each
  // page onto the exact sheet, so it is passed on as it came.
  return bytes;
}
