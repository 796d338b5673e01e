// The `setting_changes` table (migration 021): one row per change of an account setting, written in
// the transaction that changes it (accounts.ts `storeSetting`), read newest first.
import type { Knex } from 'knex';
import type { Mode } from '../catalog/types';

/** Who changed a setting: a key (a dashboard session's) or the operator's CLI. */
export type SettingChanger = { via: 'cli' } | { via: 'key'; keyId: string; keyHint: string; mode: Mode };

export interface SettingChangeRow {
  id: number;
  account_id: string;
  setting: string;
  /** JSON */
  value_before: string;
  /** JSON */
  value_after: string;
  changed_via: 'cli' | 'key';
  key_id: string | null;
  key_hint: string | null;
  key_mode: Mode | null;
  date_created: string;
}

export async function insertSettingChange(
  trx: Knex,
  change: { accountId: string; setting: string; before: unknown; after: unknown; by: SettingChanger; at: string },
): Promise<void> {
  const { by } = change;
  await trx('setting_changes').insert({
    account_id: change.accountId,
    setting: change.setting,
    value_before: JSON.stringify(change.before),
    value_after: JSON.stringify(change.after),
    changed_via: by.via,
    key_id: by.via === 'key' ? by.keyId : null,
    key_hint: by.via === 'key' ? by.keyHint : null,
    key_mode: by.via === 'key' ? by.mode : null,
    date_created: change.at,
  });
}

/** The account's latest changes, newest first. */
export async function recentSettingChanges(knex: Knex, accountId: string, limit: number): Promise<SettingChangeRow[]> {
  return knex<SettingChangeRow>('setting_changes').where({ account_id: accountId }).orderBy('id', 'desc').limit(limit);
}
