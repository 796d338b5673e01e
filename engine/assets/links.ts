// A piece keeps the keys of its files (`postcards/psc_….pdf`), never a link: links are signed as the
// piece is answered, so each GET hands out a fresh 30-day link and a stored answer (an idempotent
// replay, an event) never carries an expired one.
import type { Resource } from '../catalog/types';
import type { AssetSigner } from './signing';

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

/** The answer (a piece, or a list of them) with its file keys turned into signed links. */
export function signAssetLinks(resource: Resource, answer: unknown, links: LinkSigner): unknown {
  if (!resource.mailpiece || typeof answer !== 'object' || answer === null) return answer;
  const value = answer as Record<string, unknown>;
  const isPiece = (o: unknown): o is Record<string, unknown> =>
    typeof o === 'object' && o !== null && (o as Record<string, unknown>).object === resource.object;
  if (value.object === 'list' && Array.isArray(value.data))
    return { ...value, data: value.data.map((o) => (isPiece(o) ? signPiece(o, links) : o)) };
  return isPiece(value) ? signPiece(value, links) : answer;
}
