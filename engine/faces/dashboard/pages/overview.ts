// Overview: this account's pieces by status today and this week (in the session's mode), what goes to
// production next, failed renders and deliveries, the renderer's and the queue's state.
import { page } from '../page';
import type { DashboardRequest, Rendered } from '../page';
import { PIECE_KINDS, pieceRow } from './pieces';

const STATUSES = ['processed', 'rendered', 'failed', 'cancelled'];

function startOfDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** Monday 00:00 UTC of this week. */
function startOfWeek(now: Date): Date {
  const day = startOfDay(now);
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * 86_400_000);
}

function countRows(counts: Record<string, number>): { status: string; count: number }[] {
  const extra = Object.keys(counts).filter((s) => !STATUSES.includes(s));
  return [...STATUSES, ...extra].map((status) => ({ status, count: counts[status] ?? 0 }));
}

async function failedDeliveries({
  services,
  scope,
}: DashboardRequest): Promise<{ id: string; url: string; failed: number }[]> {
  const hooks = await services.objects.list(scope, 'webhooks', { limit: 100 });
  const counts = await services.store.webhookFailures.failedCounts(hooks.data.map((h) => h.id));
  return hooks.data
    .map((hook) => ({
      id: hook.id,
      url: typeof hook.url === 'string' ? hook.url : '',
      failed: counts.get(hook.id) ?? 0,
    }))
    .filter((row) => row.failed > 0);
}

async function overview(request: DashboardRequest): Promise<Rendered> {
  const { services, scope } = request;
  const now = new Date();
  const dashboard = services.store.dashboard;
  const [today, week, next, failed, deliveries, health] = await Promise.all([
    dashboard.pieceCounts(scope, PIECE_KINDS, startOfDay(now).toISOString()),
    dashboard.pieceCounts(scope, PIECE_KINDS, startOfWeek(now).toISOString()),
    dashboard.nextToProduction(scope, PIECE_KINDS, 30),
    dashboard.listPieces(scope, { kinds: PIECE_KINDS, status: 'failed', limit: 5 }),
    failedDeliveries(request),
    services.health(),
  ]);
  return {
    view: 'overview',
    title: 'Overview',
    nav: 'overview',
    data: {
      today: countRows(today),
      week: countRows(week),
      next: next
        .filter(({ piece }) => !piece.production)
        .slice(0, 8)
        .map(({ kind, piece }) => pieceRow(kind, piece)),
      failed: failed.slice(0, 5).map(({ kind, piece }) => ({
        ...pieceRow(kind, piece),
        reason: typeof piece.failure_reason === 'string' ? piece.failure_reason : '',
      })),
      deliveries,
      health,
    },
  };
}

export const overviewPages = [page('GET', '/', overview)];
