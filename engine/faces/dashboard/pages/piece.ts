// A piece's page: thumbnails, the PDF inline, addresses, merge variables, metadata, tracking timeline,
// its events and their webhook deliveries, and a cancel button while cancelling is allowed. Its files
// are streamed from the asset store here, after the session check. A piece of another account or mode
// is not found, as an id that does not exist.
import { ApiError } from '../../../base/errors';
import { findMailpiece } from '../../../catalog';
import { cancelPiece } from '../../../domain/pieces/cancel';
import { cancelDeadline } from '../../../domain/pieces/schedule';
import { page, PageNotFound, type DashboardRequest, type PageAnswer, type Rendered } from '../page';
import { KIND_LABELS } from './pieces';
import { addressLines, artworkSources, entries, fileHref, fileKey, thumbnailsOf, trackingRows } from './piece-view';

async function findPiece({ services, scope, params }: DashboardRequest) {
  const found = await services.objects.locate(params.id);
  const resource = found && findMailpiece(found.kind);
  if (!found || !resource || found.scope.accountId !== scope.accountId || found.scope.mode !== scope.mode)
    throw new PageNotFound();
  const piece = await services.objects.get(scope, found.kind, params.id, { includeDeleted: true });
  if (!piece) throw new PageNotFound();
  return { resource, piece };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

async function show(request: DashboardRequest): Promise<Rendered> {
  const { services, scope, session } = request;
  const { resource, piece } = await findPiece(request);
  const cancelled = piece.deleted === true;
  const status = cancelled ? 'cancelled' : text(piece.status);
  const deadline = cancelDeadline(piece, session.account.settings.cancellation_window_minutes);
  const cancellable = !cancelled && !piece.production && Date.now() < deadline;
  const events = await services.store.events.listEvents(scope, { limit: 50, referenceId: piece.id });
  const attempts = await services.store.dashboard.attemptsForEvents(
    scope,
    events.data.map((e) => e.id),
    50,
  );
  const thumbnails = cancelled ? [] : thumbnailsOf(piece);
  const made = await services.store.pieceInputs.readPieceInputs(piece.id);
  const ours = made && made.scope.accountId === scope.accountId && made.scope.mode === scope.mode;
  return {
    view: 'piece',
    title: `${resource.title} ${piece.id}`,
    nav: 'mail',
    data: {
      id: piece.id,
      kindLabel: KIND_LABELS[resource.name] ?? resource.name,
      status,
      cancelled,
      description: text(piece.description),
      failureReason: text(piece.failure_reason),
      inProduction: Boolean(piece.production),
      facts: [
        { name: 'Created', value: piece.date_created, date: true },
        { name: 'Send date', value: text(piece.send_date), date: true },
        { name: 'Expected delivery', value: text(piece.expected_delivery_date) },
        { name: 'Mail type', value: text(piece.mail_type) },
        { name: 'Size', value: text(piece.size) },
        { name: 'Campaign', value: text(piece.campaign_id) },
      ].filter((f) => f.value),
      to: addressLines(piece.to),
      from: addressLines(piece.from),
      mergeVariables: piece.merge_variables ?? null,
      metadata: entries(piece.metadata),
      tracking: trackingRows(piece),
      events: events.data.map((e) => ({
        id: e.id,
        type: isTyped(e.event_type) ? e.event_type.id : '',
        date: e.date_created,
      })),
      attempts,
      thumbnails,
      sources: ours ? artworkSources(made.inputs.artwork) : [],
      pdf: !cancelled && status === 'rendered' ? fileHref(piece.id, 'pdf') : undefined,
      // a piece still rendering reloads until its thumbnails are there (assets/dashboard.js)
      waiting: !cancelled && (status === 'processed' || (status === 'rendered' && thumbnails.length === 0)),
      cancellable,
      cancelUntil: cancellable ? new Date(deadline).toISOString() : undefined,
      cancelAction: `/dashboard/mail/${encodeURIComponent(piece.id)}/cancel`,
    },
  };
}

function isTyped(value: unknown): value is { id: string } {
  return typeof value === 'object' && value !== null && 'id' in value && typeof value.id === 'string';
}

async function cancel(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, session } = request;
  const { resource, piece } = await findPiece(request);
  const back = `/dashboard/mail/${encodeURIComponent(piece.id)}`;
  try {
    await cancelPiece(services.objects, services.assets, scope, session.account.settings, resource, piece.id);
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return { redirect: back, notice: 'not_cancelled' };
    throw error;
  }
  return { redirect: back, notice: 'cancelled' };
}

async function file(request: DashboardRequest): Promise<PageAnswer> {
  const { piece } = await findPiece(request);
  const key = piece.deleted === true ? undefined : fileKey(piece, request.params.name);
  const asset = key ? await request.services.assets.getStream(key).catch(() => undefined) : undefined;
  if (!asset) throw new PageNotFound();
  const { ctx } = request;
  // a PDF or PNG of the engine's own making, not a page: the pages' CSP would keep the PDF viewer out
  ctx.remove('Content-Security-Policy');
  ctx.set('Cache-Control', 'private, max-age=300');
  ctx.set('Content-Disposition', 'inline');
  ctx.type = asset.contentType;
  if (asset.size !== undefined) ctx.length = asset.size;
  if (ctx.method === 'HEAD') {
    asset.stream.destroy(); // Koa would leave the unread stream (and its open file) to the collector
    return { stream: true };
  }
  ctx.body = asset.stream;
  return { stream: true };
}

export const piecePages = [
  page('GET', '/mail/{id}', show),
  page('POST', '/mail/{id}/cancel', cancel),
  page('GET', '/mail/{id}/files/{name}', file),
];
