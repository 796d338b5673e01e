// Pieces as the dashboard's lists show them: every mailpiece kind, a row's few facts.
import { mailpieceResources } from '../../../catalog';
import type { StoredObject } from '../../../store/stored';

export const PIECE_KINDS: readonly string[] = mailpieceResources.map((r) => r.name);

export const KIND_LABELS: Record<string, string> = Object.fromEntries(mailpieceResources.map((r) => [r.name, r.title]));

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function recipientOf(piece: StoredObject<string>): string {
  const to = piece.to;
  if (to && typeof to === 'object' && !Array.isArray(to)) {
    const record: Record<string, unknown> = { ...to };
    return text(record.name) || text(record.company) || text(record.address_line1);
  }
  return text(to);
}

/** A list row: kind, id, status, recipient, description, dates. */
export function pieceRow(kind: string, piece: StoredObject<string>): Record<string, unknown> {
  return {
    id: piece.id,
    kind,
    kindLabel: KIND_LABELS[kind] ?? kind,
    status: text(piece.status) || 'unknown',
    inProduction: Boolean(piece.production),
    recipient: recipientOf(piece),
    description: text(piece.description),
    dateCreated: piece.date_created,
    sendDate: text(piece.send_date),
    href: `/dashboard/mail/${encodeURIComponent(piece.id)}`,
  };
}
