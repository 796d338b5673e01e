// A piece keeps the keys of its files (`postcards/psc_….pdf`), never a link: links are signed as the
// piece is answered, so each GET hands out a fresh 30-day link and a stored answer (an idempotent
// replay, an event) never carries an expired one.
import type { Resource } from '../../catalog/types';
import { findResource } from '../../catalog';
import type { AssetSigner } from './signing';
import { isPlainObject } from '../../base/records';

export const ASSET_ROUTE_PREFIX = '/assets/';

export type ThumbnailSize = 'small' | 'medium' | 'large';
export const THUMBNAIL_SIZES: readonly ThumbnailSize[] = ['small', 'medium', 'large'];

/** The folder of a kind's files, as the vendor names it in its links (`self-mailers`). */
const folderOf = (resource: Resource) => resource.name.replace(/_/g, '-');

export const pdfKey = (resource: Resource, id: string) => `${folderOf(resource)}/${id}.pdf`;
export const thumbnailKey = (resource: Resource, id: string, size: ThumbnailSize, page: number) =>
  `${folderOf(resource)}/${id}_thumb_${size}_${page}.png`;

export interface LinkSigner {
  signer: AssetSigner;
  /** scheme and host the links point at */
  origin: string;
}

function link(key: unknown, { signer, origin }: LinkSigner): unknown {
  if (typeof key !== 'string' || key.includes('://')) return key;
  return `${origin}${signer.sign(`${ASSET_ROUTE_PREFIX}${key}`)}`;
}

function signPiece(piece: Record<string, unknown>, links: LinkSigner): Record<string, unknown> {
  const thumbnails = Array.isArray(piece.thumbnails)
    ? piece.thumbnails.map((t: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(t).map(([size, key]) => [size, link(key, links)])),
      )
    : piece.thumbnails;
  return { ...piece, url: link(piece.url, links), thumbnails };
}

/** An object whose `fields` hold file keys (an insert's artwork), with those turned into signed links. */
function signFields(object: Record<string, unknown>, fields: readonly string[], links: LinkSigner) {
  const signed = { ...object };
  for (const field of fields) if (field in signed) signed[field] = link(signed[field], links);
  return signed;
}

/** Events carry the object they are about: their bodies are signed as that object's own answer. */
const isEventLog = (resource: Resource) => resource.object === 'event';

/**
 * Whether answers of `resource` carry file keys to sign: pieces, kinds that declare `assetLinks`, and
 * events (whose bodies are such objects).
 */
export const hasAssetLinks = (resource: Resource): boolean =>
  Boolean(resource.mailpiece ?? resource.assetLinks?.length) || isEventLog(resource);

/** An event with its body's file keys turned into signed links, as its object's own GET answers them. */
function signEvent(event: Record<string, unknown>, links: LinkSigner): Record<string, unknown> {
  const type = event.event_type;
  const resource = isPlainObject(type) && typeof type.resource === 'string' ? findResource(type.resource) : undefined;
  if (!resource || isEventLog(resource) || !hasAssetLinks(resource)) return event;
  return { ...event, body: signAssetLinks(resource, event.body, links) };
}

/**
 * An event as its stored JSON text, with the links of its body signed (a webhook delivery's body); the
 * text as it is when its object has no files.
 */
export function signEventText(text: string, links: LinkSigner): string {
  const event: unknown = JSON.parse(text);
  if (!isPlainObject(event)) return text;
  const signed = signEvent(event, links);
  return signed === event ? text : JSON.stringify(signed);
}

/**
 * The answer (a piece, an insert or an event, or a list of them) with its file keys turned into signed
 * links.
 */
export function signAssetLinks(resource: Resource, answer: unknown, links: LinkSigner): unknown {
  if (!hasAssetLinks(resource) || !isPlainObject(answer)) return answer;
  const value = answer;
  if (isEventLog(resource)) {
    const isEvent = (o: unknown): o is Record<string, unknown> => isPlainObject(o) && o.object === 'event';
    if (value.object === 'list' && Array.isArray(value.data))
      return { ...value, data: value.data.map((o) => (isEvent(o) ? signEvent(o, links) : o)) };
    return isEvent(value) ? signEvent(value, links) : answer;
  }
  const fields = resource.assetLinks;
  const sign = (o: Record<string, unknown>) => (fields ? signFields(o, fields, links) : signPiece(o, links));
  const isOwn = (o: unknown): o is Record<string, unknown> => isPlainObject(o) && o.object === resource.object;
  if (value.object === 'list' && Array.isArray(value.data))
    return { ...value, data: value.data.map((o) => (isOwn(o) ? sign(o) : o)) };
  return isOwn(value) ? sign(value) : answer;
}
