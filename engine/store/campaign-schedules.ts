// The campaigns whose schedules are live, across every account and mode: what the scheduler of each
// engine process (engine/domain/campaigns/scheduler.ts) looks at on each pass. `status` is an indexed
// filter column of `objects`, so this reads only the scheduled ones.
import type { Knex } from 'knex';
import type { ObjectColumns } from './columns';
import type { Scope } from './scope';
import { parseStored, type StoredObjects } from './stored';

export async function scheduledCampaigns(
  knex: Knex,
): Promise<{ scope: Scope; campaign: StoredObjects['campaigns'] }[]> {
  const rows = await knex<ObjectColumns>('objects')
    .select('account_id', 'mode', 'body')
    .where({ kind: 'campaigns', deleted: false, status: 'scheduled' });
  return rows.map((r) => ({
    scope: { accountId: r.account_id, mode: r.mode },
    campaign: parseStored('campaigns', r.body),
  }));
}
