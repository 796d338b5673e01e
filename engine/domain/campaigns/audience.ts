// Who a run sends to: the campaign's address ids, or the address book selected by metadata and,
// optionally, by novelty (created after the previous run started). Only addresses created before the
// run started count, so the audience a run resumes with after a crash is the one it started with. A
// book search leaves out the account's return addresses (every address used as a `from`) by id, and
// marks every entry naming one of the campaign's own senders by person (a customer list may hold the
// company again under another id), so the run reports it skipped: the sender is never its own
// recipient. Each member carries its person key (../addresses/person-key.ts), which the run uses to
// mail a person once.
import { addresses } from '../../catalog/addresses';
import { campaignRuns } from '../../catalog/campaign-runs';
import type { Services } from '../services';
import type { ApiObject, ListParams, Scope, StoredObjects } from '../../store/objects';
import { nextTurn } from '../../base/next-turn';
import { personKey } from '../addresses/person-key';

interface Audience {
  address_ids?: string[];
  metadata?: Record<string, string>;
  created_since_last_run?: boolean;
}

export interface AudienceMember {
  id: string;
  /** the person the address names (personKey); undefined for an address that no longer exists */
  key?: string;
  /** the campaign's sender (an address id) this member is the same person as: it gets no piece */
  sender?: string;
}

/** The campaign's senders by person: person key -> the sender's address id. */
export type Senders = ReadonlyMap<string, string>;

/** The person of each creative's `from` (an address id); a sender deleted since is nobody's twin. */
export async function sendersOf(services: Services, scope: Scope, creatives: readonly ApiObject[]): Promise<Senders> {
  const senders = new Map<string, string>();
  for (const { from } of creatives) {
    if (typeof from !== 'string') continue;
    const address = await services.objects.get(scope, addresses.name, from);
    if (address) senders.set(personKey(address, { stored: true }), from);
  }
  return senders;
}

/** The run's audience, in the order its pieces are made. */
export async function audienceOf(
  services: Services,
  scope: Scope,
  campaign: StoredObjects['campaigns'],
  /** the run (or, before it starts, the run about to: its count, ./agent-runs.ts) */
  run: Pick<StoredObjects['campaign_runs'], 'date_created'>,
  senders: Senders,
): Promise<AudienceMember[]> {
  const audience: Audience = campaign.audience ?? {};
  if (audience.address_ids) return chosen(services, scope, audience.address_ids);
  const since = audience.created_since_last_run ? await previousRunStart(services, scope, campaign, run) : undefined;
  const params: Omit<ListParams, 'after'> = {
    limit: 100,
    metadata: audience.metadata,
    dateCreated: { lte: run.date_created, ...(since ? { gt: since } : {}) },
    sort: { column: 'date_created', direction: 'asc' },
  };
  const members: AudienceMember[] = [];
  let after: string | undefined;
  do {
    const page = await services.objects.list(scope, addresses.name, { ...params, after });
    const returns = await services.store.campaignMailings.returnAddressesAmong(
      scope,
      page.data.map((a) => a.id),
    );
    for (const address of page.data) {
      const key = personKey(address, { stored: true });
      const sender = senders.get(key);
      if (sender) members.push({ id: address.id, key, sender });
      else if (!returns.has(address.id)) members.push({ id: address.id, key });
    }
    after = page.next;
    // a large audience is many pages, read synchronously on SQLite: requests go on meanwhile
    if (after) await nextTurn();
  } while (after);
  return members;
}

/** Addresses the campaign names: each is mailed as named, a return address too (the customer chose it). */
async function chosen(services: Services, scope: Scope, ids: readonly string[]): Promise<AudienceMember[]> {
  const members: AudienceMember[] = [];
  for (const [i, id] of ids.entries()) {
    const address = await services.objects.get(scope, addresses.name, id);
    members.push({ id, key: address ? personKey(address, { stored: true }) : undefined });
    if (i % 100 === 99) await nextTurn();
  }
  return members;
}

/** When the campaign's run before `run` started, if there was one. */
async function previousRunStart(
  services: Services,
  scope: Scope,
  campaign: StoredObjects['campaigns'],
  run: Pick<StoredObjects['campaign_runs'], 'date_created'>,
): Promise<string | undefined> {
  const page = await services.objects.list(scope, campaignRuns.name, {
    limit: 2,
    parent: campaign.id,
    dateCreated: { lt: run.date_created },
    sort: { column: 'date_created', direction: 'desc' },
  });
  return page.data[0]?.date_created;
}
