// A piece's artwork fields resolved to what the renderer will read: inline HTML, the template's
// published version (recorded on the piece), or a file kept in the asset store (`uploads/<piece>_<field>`)
// and recorded in `blobs` with the piece: an upload, or a remote URL fetched now (behind the SSRF
// guard) so the renderer never fetches it. Files are checked against the product's rules (page size,
// pages, fonts, DPI) before they are taken; an upload is copied from its temporary file as a stream.
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { AssetStore } from '../../platform/assets/store';
import { uploadKey } from './piece-files';
import { ApiError } from '../../base/errors';
import type { ArtworkSide } from '../../catalog/types';
import { templates, templateVersions } from '../../catalog/templates';
import { templateFieldsOf } from '../../catalog/mailpieces/fields';
import { isUploadRef, type UploadRef } from '../../catalog/uploads';
import { idPatternFor } from '../../catalog/paths';
import type { ObjectStore, Scope, StoredObjects } from '../../store/objects';
import type { NewBlob } from '../../store/blobs';
import { newId } from '../../base/ids';
import { checkArtwork, type ArtworkProduct } from '../artwork/check-artwork';
import { fetchRemoteArtwork, type RemoteLimits } from '../artwork/remote-file';
import { sniff } from '../artwork/sniff';
import { isStoredArtwork, type FileSource, type StoredArtwork } from './stored-artwork';

import type { ArtworkSource } from '../../store/piece-inputs';

export type { ArtworkSource } from '../../store/piece-inputs';

export interface ResolvedArtwork {
  sources: Record<string, ArtworkSource>;
  /** `front_template_id`, `front_template_version_id`, ... for the piece */
  templateFields: Record<string, string | null>;
  /** HTML the piece will merge, by field: checked for merge variables at create (`compiled`: a template version, already checked when it was made) */
  html: { field: string; html: string; required: readonly string[]; compiled?: boolean }[];
  blobs: NewBlob[];
}

/** What files are checked against, how remote ones are fetched, and where they are kept. */
export interface ArtworkContext {
  product: ArtworkProduct;
  remote: RemoteLimits;
  assets: AssetStore;
  /** the id the piece will have: its files are named by it */
  pieceId: string;
  /**
   * Published versions already read, by template id: a campaign run reads each template once, and its
   * pieces keep the version its first piece took, even if another is published meanwhile.
   */
  versions?: Map<string, StoredObjects['template_versions']>;
}

/** A file to take: an upload on disk (read only as far as its checks need), or fetched bytes. */
export type IncomingFile = { path: string; filename: string } | { bytes: Buffer; filename: string };

/** Enough of the start of a file for `sniff`. */
async function headOf(file: IncomingFile): Promise<Buffer> {
  if ('bytes' in file) return file.bytes;
  const handle = await open(file.path, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(512), 0, 512, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Removes the files `blobs` name from the asset store: their piece was not committed. */
export async function discardStoredFiles(assets: AssetStore, blobs: readonly NewBlob[]): Promise<void> {
  if (blobs.length) await assets.delete(blobs.map((blob) => blob.assetKey));
}

const TEMPLATE_ID = new RegExp(idPatternFor('tmpl'));
const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * A file sniffed, checked, copied into the asset store (hashed on the way) and made a blob to record
 * (the same for an upload and a fetched URL). An upload is never held whole for this: sniffing reads
 * its first bytes, an image is checked by sharp from its path, and only a PDF's check (pdf-lib) and an
 * HTML file's merge read it into memory, one copy at a time.
 */
export async function storeFile(
  field: string,
  file: IncomingFile,
  context: Pick<ArtworkContext, 'product' | 'assets' | 'pieceId'>,
  now: string,
): Promise<{ source: FileSource; blob: NewBlob; html?: string }> {
  const type = sniff(await headOf(file));
  if (!type) throw new ApiError('invalid_file', `${field} must be a PDF, PNG, JPEG or HTML file`, 422);
  const checked = 'bytes' in file ? file.bytes : { path: file.path, size: (await stat(file.path)).size };
  await checkArtwork(checked, type, context.product, field);
  const html =
    type !== 'text/html' ? undefined : ('bytes' in file ? file.bytes : await readFile(file.path)).toString('utf8');
  const id = newId('blob', 24);
  const assetKey = uploadKey(context.pieceId, field);
  const body = 'bytes' in file ? Readable.from([file.bytes]) : createReadStream(file.path);
  const { size, sha256 } = await context.assets.putStream(assetKey, body, type);
  // a part's or URL's name may carry control characters (%00): PostgreSQL refuses NUL in text
  const filename = file.filename.replace(/[\u0000-\u001f\u007f]/g, '_').slice(0, 255);
  const blob: NewBlob = { id, contentType: type, filename, size, sha256, assetKey, dateCreated: now };
  const source: FileSource = { kind: 'file', blob_id: id, content_type: type, filename, size };
  return { source, blob, html };
}

/**
 * An upload checked for `product` and stored as the artwork of `ownerId` (a piece, or a creative whose
 * pieces all name it): the direct create's sniffing and checks, one code path.
 */
export async function storeUpload(
  field: string,
  upload: UploadRef,
  context: { product: ArtworkProduct; assets: AssetStore; ownerId: string },
  now: string,
): Promise<{ source: FileSource; blob: NewBlob; html?: string }> {
  const { product, assets, ownerId } = context;
  return storeFile(field, { path: upload.path, filename: upload.filename }, { product, assets, pieceId: ownerId }, now);
}

/**
 * A stored file was checked for its creative's product with a US recipient; only a letter abroad takes
 * less (fewer pages), so only then is it read and checked again, for this recipient.
 */
async function recheckStored(field: string, stored: StoredArtwork, context: ArtworkContext): Promise<void> {
  if (context.product.kind !== 'letters' || !context.product.abroad) return;
  const file = await context.assets.get(stored.assetKey);
  if (!file) throw new ApiError('invalid_file', `${field}: the stored file is gone`, 422);
  await checkArtwork(file.bytes, stored.source.content_type, context.product, field);
}

/** `value` as an http(s) URL without credentials, or the spec's 422 naming `field`. */
export function remoteUrl(field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApiError('invalid_file_url', `${field} is not a valid URL`, 422);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ApiError('invalid_file_url', `${field} must be an http or https URL`, 422);
  if (url.username || url.password) throw new ApiError('invalid_file_url', `${field} must not carry credentials`, 422);
  return url.href;
}

async function publishedVersion(
  objects: ObjectStore,
  scope: Scope,
  field: string,
  id: string,
  versions: Map<string, StoredObjects['template_versions']> | undefined,
): Promise<StoredObjects['template_versions']> {
  const known = versions?.get(id);
  if (known) return known;
  const version = await readPublishedVersion(objects, scope, field, id);
  versions?.set(id, version);
  return version;
}

async function readPublishedVersion(objects: ObjectStore, scope: Scope, field: string, id: string) {
  const template = await objects.get(scope, templates.name, id);
  if (!template) throw new ApiError('not_found', `${field} template ${id} not found`, 404);
  const versionId = String(template.published_version);
  const version = await objects.get(scope, templateVersions.name, versionId, { parent: id });
  if (!version) throw new ApiError('not_found', `${field} template ${id} has no published version`, 404);
  return version;
}

/** The artwork of `sides`, its files already in the asset store: discard them if the piece is not committed. */
export async function resolveArtwork(
  objects: ObjectStore,
  scope: Scope,
  sides: readonly ArtworkSide[],
  body: Record<string, unknown>,
  now: string,
  context: ArtworkContext,
): Promise<ResolvedArtwork> {
  const resolved: ResolvedArtwork = { sources: {}, templateFields: {}, html: [], blobs: [] };
  try {
    await resolveSides(objects, scope, sides, body, now, context, resolved);
  } catch (error) {
    // a later side refused: the files of the sides before it belong to no piece
    await discardStoredFiles(context.assets, resolved.blobs).catch(() => undefined); // the refusal is the answer
    throw error;
  }
  return resolved;
}

async function resolveSides(
  objects: ObjectStore,
  scope: Scope,
  sides: readonly ArtworkSide[],
  body: Record<string, unknown>,
  now: string,
  context: ArtworkContext,
  resolved: ResolvedArtwork,
): Promise<void> {
  for (const side of sides) {
    const [templateField, versionField] = templateFieldsOf(side.field, side.named);
    resolved.templateFields[templateField] = null;
    resolved.templateFields[versionField] = null;
    const value = body[side.field];
    if (isStoredArtwork(value)) {
      // a creative's file, stored once: the piece names it (no copy, no blob of its own)
      await recheckStored(side.field, value, context);
      resolved.sources[side.field] = value.source;
      continue;
    }
    // validation took a string or an upload the multipart parser made, and nothing else
    if (typeof value !== 'string' && !isUploadRef(value)) continue;
    if (typeof value !== 'string' || URL_LIKE.test(value)) {
      const file =
        typeof value === 'string'
          ? await fetchRemoteArtwork(side.field, remoteUrl(side.field, value), context.remote)
          : { path: value.path, filename: value.filename };
      const stored = await storeFile(side.field, file, context, now);
      resolved.sources[side.field] = stored.source;
      resolved.blobs.push(stored.blob);
      if (stored.html) resolved.html.push({ field: side.field, html: stored.html, required: [] });
    } else if (TEMPLATE_ID.test(value)) {
      const version = await publishedVersion(objects, scope, side.field, value, context.versions);
      resolved.sources[side.field] = { kind: 'template', template_id: value, version_id: version.id };
      resolved.templateFields[templateField] = value;
      resolved.templateFields[versionField] = version.id;
      resolved.html.push({
        field: side.field,
        html: String(version.html),
        required: version.required_vars ?? [],
        compiled: true,
      });
    } else if (value.includes('<')) {
      resolved.sources[side.field] = { kind: 'html', html: value };
      resolved.html.push({ field: side.field, html: value, required: [] });
    } else {
      throw new ApiError(
        'invalid',
        `${side.field} must be HTML, a template id (tmpl_...), an http(s) URL of a PDF, PNG or JPEG, or an uploaded file`,
        422,
      );
    }
  }
}
