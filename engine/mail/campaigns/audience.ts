// Who a run sends to: the campaign's address ids, or the address book selected by metadata and,
// optionally, by novelty (created after the previous run started). Only addresses created before the
// run started count, so the audience a run resumes with after a crash is the one it started with.
import { addresses } from '../../catalog/addresses';
import { campaignRuns } from '../../catalog/campaigns';
import type { Services } from '../../services';
import type { ApiObject, ListParams, Scope } from '../../store/objects';
import { nextTurn } from '../../util/next-turn';

interface Audience {
  address_ids?: string[];
  metadata?: Record<string, string>;
  created_since_last_run?: boolean;
}

/** The address ids of the run's audience, in the order their pieces are made. */
export async function audienceOf(
  services: Services,
  scope: Scope,
  campaign: ApiObject,
  run: ApiObject,
): Promise<string[]> {
  const audience = (campaign.audience ?? {}) as Audience;
  if (audience.address_ids) return audience.address_ids;
  const since = audience.created_since_last_run ? await previousRunStart(services, scope, campaign, run) : undefined;
  const params: Omit<ListParams, 'after'> = {
    limit: 100,
    metadata: audience.metadata,
    dateCreated: { lte: run.date_created as string, ...(since ? { gt: since } : {}) },
    sort: { column: 'date_created', direction: 'asc' },
  };
  const ids: string[] = [];
  let after: string | undefined;
  do {
    const page = await services.objects.list(scope, addresses.name, { ...params, after });
    ids.push(...page.data.map((a) => a.id));
    after = page.next;
    // a large audience is many pages, read synchronously on SQLite: requests go on meanwhile
    if (after) await nextTurn();
  } while (after);
  return ids;
}

/** When the campaign's run before `run` started, if there was one. */
async function previousRunStart(
  services: Services,
  scope: Scope,
  campaign: ApiObject,
  run: ApiObject,
): Promise<string | undefined> {
  const page = await services.objects.list(scope, campaignRuns.name, {
    limit: 2,
    parent: campaign.id,
    dateCreated: { lt: run.date_created as string },
    sort: { column: 'date_created', direction: 'desc' },
  });
  return page.data[0]?.date_created as string | undefined;
}
