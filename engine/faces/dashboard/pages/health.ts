// Health: what `GET /health` answers, laid out: database, renderer, queue, production readiness,
// memory, the street data loaded for live verification, and the disabled webhooks of this account
// only (the engine's list spans every account).
import type { StreetDataKind } from '../../../domain/streets/status';
import { page, type DashboardRequest, type Rendered } from '../page';

const KIND_LABELS: Record<StreetDataKind['kind'], string> = {
  tiger_addrfeat: 'TIGER/Line address ranges',
  openaddresses: 'OpenAddresses points',
  nad: 'National Address Database points',
};

/** A kind of street data as the page lists it: what it is, how many counties or sources, which. */
function streetDataRow(kind: StreetDataKind) {
  const unit = kind.kind === 'tiger_addrfeat' ? 'county' : 'source';
  return {
    label: KIND_LABELS[kind.kind],
    sources: `${kind.sources.toLocaleString('en-US')} ${kind.sources === 1 ? unit : unit === 'county' ? 'counties' : 'sources'}`,
    names: kind.names,
    more: kind.sources > kind.names.length ? kind.sources - kind.names.length : 0,
    rows: `${kind.rows.toLocaleString('en-US')} ${kind.rows === 1 ? 'row' : 'rows'}`,
    loaded_at: kind.loaded_at,
  };
}

async function health({ services, scope }: DashboardRequest): Promise<Rendered> {
  const report = await services.health();
  const disabled = (report.webhooks?.disabled ?? []).filter(
    (hook) => hook.account_id === scope.accountId && hook.mode === scope.mode,
  );
  return {
    view: 'health',
    title: 'Health',
    nav: 'health',
    data: {
      health: report,
      disabled,
      memory: report.memory,
      streetData: report.street_data?.map(streetDataRow) ?? [],
      streetDataKnown: report.street_data !== null,
    },
  };
}

export const healthPages = [page('GET', '/health', health)];
