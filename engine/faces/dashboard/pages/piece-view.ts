// A piece as its page shows it: addresses as lines, thumbnails and PDF as dashboard links (streamed by
// pages/piece.ts after the session check), tracking events, merge variables and metadata as text.
import type { StoredObject } from '../../../store/stored';
import { isPlainObject } from '../../../base/records';
import type { ArtworkSource } from '../../../store/piece-inputs';

const text = (value: unknown): string =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';

/** An address (object or id) as the lines of its label. */
export function addressLines(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (!isPlainObject(value)) return [];
  const place = [text(value.address_city), text(value.address_state), text(value.address_zip)].filter(Boolean);
  const lines = ['name', 'company', 'address_line1', 'address_line2'].map((f) => text(value[f]));
  return [...lines, place.join(' '), text(value.address_country)].filter(Boolean);
}

export function fileHref(id: string, name: string): string {
  return `/dashboard/mail/${encodeURIComponent(id)}/files/${name}`;
}

/** The thumbnails the piece records, as dashboard links (medium size to show, large to open). */
export function thumbnailsOf(piece: StoredObject<string>): { page: number; src: string; large: string }[] {
  if (!Array.isArray(piece.thumbnails)) return [];
  return piece.thumbnails.flatMap((sizes: unknown, index: number) =>
    isPlainObject(sizes) && typeof sizes.medium === 'string'
      ? [
          {
            page: index + 1,
            src: fileHref(piece.id, `thumb-${index}-medium`),
            large: fileHref(piece.id, `thumb-${index}-large`),
          },
        ]
      : [],
  );
}

/** The asset key a file name of the page stands for: `pdf`, `thumb-<page>-<size>`. */
export function fileKey(piece: StoredObject<string>, name: string): string | undefined {
  if (name === 'pdf') return typeof piece.url === 'string' && !piece.url.includes('://') ? piece.url : undefined;
  const match = /^thumb-(\d{1,3})-(small|medium|large)$/.exec(name);
  if (!match || !Array.isArray(piece.thumbnails)) return undefined;
  const sizes: unknown = piece.thumbnails[Number(match[1])];
  const key = isPlainObject(sizes) ? sizes[match[2]] : undefined;
  return typeof key === 'string' && !key.includes('://') ? key : undefined;
}

/** Tracking events as rows: what, when, where. */
export function trackingRows(piece: StoredObject<string>): { what: string; when: string; where: string }[] {
  const events: unknown = piece.tracking_events;
  if (!Array.isArray(events)) return [];
  return events.filter(isPlainObject).map((event) => ({
    what: text(event.name) || text(event.type),
    when: text(event.time) || text(event.date_created),
    where: text(event.location),
  }));
}

/** A record's entries as name/value text (metadata, merge variables' top level). */
export function entries(value: unknown): { name: string; value: string }[] {
  if (!isPlainObject(value)) return [];
  return Object.entries(value).map(([name, v]) => ({
    name,
    value: typeof v === 'object' && v !== null ? JSON.stringify(v) : text(v),
  }));
}

/** Where each side's artwork came from, in words: an uploaded file by its name, a template, HTML, a URL. */
export function artworkSources(sources: Record<string, ArtworkSource> | undefined): { side: string; from: string }[] {
  return Object.entries(sources ?? {}).map(([side, source]) => {
    if (source.kind === 'file')
      return {
        side,
        from: `file ${source.filename} (${source.content_type}, ${source.size.toLocaleString('en-US')} bytes)`,
      };
    if (source.kind === 'template')
      return { side, from: `template ${source.template_id} (version ${source.version_id})` };
    if (source.kind === 'url') return { side, from: `URL ${source.url}` };
    return { side, from: 'HTML given with the piece' };
  });
}
