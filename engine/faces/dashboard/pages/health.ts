// Health: what `GET /health` answers, laid out: database, renderer, queue, production readiness,
// memory, and the disabled webhooks of this account only (the engine's list spans every account).
import { page, type DashboardRequest, type Rendered } from '../page';

async function health({ services, scope }: DashboardRequest): Promise<Rendered> {
  const report = await services.health();
  const disabled = (report.webhooks?.disabled ?? []).filter(
    (hook) => hook.account_id === scope.accountId && hook.mode === scope.mode,
  );
  return {
    view: 'health',
    title: 'Health',
    nav: 'health',
    data: { health: report, disabled, memory: report.memory },
  };
}

export const healthPages = [page('GET', '/health', health)];
