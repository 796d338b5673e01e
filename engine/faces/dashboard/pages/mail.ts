// Mail: pieces of every kind in one list, newest first, filtered by kind, status, creation date,
// campaign and one metadata pair, paged by a cursor on (date_created, id).
import { page, type DashboardRequest, type Rendered } from '../page';
import { KIND_LABELS, PIECE_KINDS, pieceRow } from './pieces';
import type { PieceFilter } from '../../../store/dashboard';

const PAGE_SIZE = 25;
const STATUSES = ['processed', 'rendered', 'failed'];
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function decodeCursor(value: string | undefined): PieceFilter['before'] {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && typeof parsed[0] === 'string' && typeof parsed[1] === 'string')
      return { dateCreated: parsed[0], id: parsed[1] };
  } catch {
    // a cursor that is not ours: the first page
  }
  return undefined;
}

const encodeCursor = (dateCreated: string, id: string) =>
  Buffer.from(JSON.stringify([dateCreated, id])).toString('base64url');

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

async function mailList({ services, scope, query }: DashboardRequest): Promise<Rendered> {
  const kind = PIECE_KINDS.includes(query.kind) ? query.kind : '';
  const status = STATUSES.includes(query.status) ? query.status : '';
  const from = DAY.test(query.from ?? '') ? query.from : '';
  const to = DAY.test(query.to ?? '') ? query.to : '';
  const campaign = (query.campaign ?? '').trim();
  const metaKey = (query.meta_key ?? '').trim();
  const metaValue = (query.meta_value ?? '').trim();
  const rows = await services.store.dashboard.listPieces(scope, {
    kinds: kind ? [kind] : PIECE_KINDS,
    status: status || undefined,
    campaignId: campaign || undefined,
    from: from ? `${from}T00:00:00.000Z` : undefined,
    to: to ? nextDay(to) : undefined,
    metadata: metaKey ? { key: metaKey, value: metaValue } : undefined,
    before: decodeCursor(query.before),
    limit: PAGE_SIZE,
  });
  const shown = rows.slice(0, PAGE_SIZE);
  const last = shown[shown.length - 1];
  const filters = { kind, status, from, to, campaign, meta_key: metaKey, meta_value: metaValue };
  const kept = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== ''));
  if (rows.length > PAGE_SIZE && last) kept.set('before', encodeCursor(last.piece.date_created, last.piece.id));
  return {
    view: 'mail',
    title: 'Mail',
    nav: 'mail',
    data: {
      rows: shown.map(({ kind: k, piece }) => pieceRow(k, piece)),
      filters,
      kinds: PIECE_KINDS.map((name) => ({ name, label: KIND_LABELS[name], selected: name === kind })),
      statuses: STATUSES.map((name) => ({ name, selected: name === status })),
      next: rows.length > PAGE_SIZE ? `/dashboard/mail?${kept.toString()}` : undefined,
      first: query.before
        ? `/dashboard/mail?${new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== '')).toString()}`
        : undefined,
    },
  };
}

export const mailPages = [page('GET', '/mail', mailList)];
