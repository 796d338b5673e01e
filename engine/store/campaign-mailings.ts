// Who a campaign has mailed (`campaign_mailings`, migrations/015): one row per piece a run made, keyed by
// the recipient as a person (engine/domain/addresses/person-key.ts). A row commits with its piece (commit.ts), so
// the unique (run, creative, person) refuses a second piece for one person in one run; a run reads the
// rows of the campaign's earlier runs to mail only people the campaign has not mailed yet.
import type { Knex } from 'knex';
import type { Scope } from './scope';

export interface CampaignMailing {
  campaignId: string;
  creativeId: string;
  runId: string;
  personKey: string;
  pieceId: string;
}

export function mailingRow(scope: Scope, m: CampaignMailing, now = new Date().toISOString()) {
  return {
    account_id: scope.accountId,
    mode: scope.mode,
    campaign_id: m.campaignId,
    creative_id: m.creativeId,
    run_id: m.runId,
    person_key: m.personKey,
    piece_id: m.pieceId,
    date_created: now,
  };
}

type MailingRow = ReturnType<typeof mailingRow> & { seq: number };

/** A person an earlier run mailed: the piece and when. */
export interface EarlierMailing {
  pieceId: string;
  date: string;
}

/** The key of a person and creative among a campaign's mailings. */
export const mailingKey = (creativeId: string, personKey: string) => `${creativeId}:${personKey}`;

/**
 * The people the campaign's other runs mailed since `since` (all of them without it), by mailingKey,
 * the latest piece of each.
 */
export async function earlierMailings(
  knex: Knex,
  scope: Scope,
  campaignId: string,
  exceptRun: string,
  since?: string,
): Promise<Map<string, EarlierMailing>> {
  const query = knex<MailingRow>('campaign_mailings')
    .select('creative_id', 'person_key', 'piece_id', 'date_created')
    .where({ account_id: scope.accountId, mode: scope.mode, campaign_id: campaignId })
    .whereNot('run_id', exceptRun)
    .orderBy('seq');
  if (since) query.where('date_created', '>', since);
  const rows = await query;
  return new Map(
    rows.map((r) => [mailingKey(r.creative_id, r.person_key), { pieceId: r.piece_id, date: r.date_created }]),
  );
}

/** The piece this run made for the person and creative, if it made one. */
export async function mailedInRun(
  knex: Knex,
  runId: string,
  creativeId: string,
  personKey: string,
): Promise<string | undefined> {
  const row = await knex<MailingRow>('campaign_mailings')
    .first('piece_id')
    .where({ run_id: runId, creative_id: creativeId, person_key: personKey });
  return row?.piece_id;
}

export function returnAddressRow(scope: Scope, addressId: string) {
  return { address_id: addressId, account_id: scope.accountId, mode: scope.mode };
}

/** Which of these addresses were saved as a sender's (an inline `from`). */
export async function returnAddressesAmong(knex: Knex, scope: Scope, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await knex<ReturnType<typeof returnAddressRow>>('return_addresses')
    .select('address_id')
    .where({ account_id: scope.accountId, mode: scope.mode })
    .whereIn('address_id', ids);
  return new Set(rows.map((r) => r.address_id));
}
