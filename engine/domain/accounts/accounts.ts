// Accounts, their keys and settings.
import type { Mode } from '../../catalog/types';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import type { AccountRow } from '../../store/accounts';
import type { Store } from '../../store/store';
import { hashKey, keyHint, keyShape, makeKey, sameHash, type KeyKind } from './keys';
import { ApiError } from '../../base/errors';
import type { SettingChanger } from '../../store/setting-changes';
import {
  governsLiveMoney,
  resolveSettings,
  SETTINGS,
  type SettingName,
  type SettingValue,
  type Settings,
} from './settings';

export type { SettingChanger };

/** One recorded change of a setting: the values before and after, who, when. */
export interface SettingChange {
  setting: string;
  before: SettingValue;
  after: SettingValue;
  by: SettingChanger;
  dateCreated: string;
}

/** The operator at the command line (`printpost settings set`). */
export const CLI_CHANGER: SettingChanger = { via: 'cli' };

export interface Account {
  id: string;
  name: string;
  settings: Settings;
}

export interface KeySet {
  test: string;
  live: string;
  testPub: string;
  livePub: string;
}

export interface Caller {
  account: Account;
  mode: Mode;
  kind: KeyKind;
  /** the key's hash: rate limits count per key without holding the key */
  keyHash: string;
  /** an AI agent's request (its key is marked so, or it came through the MCP server): agent limits apply */
  agent: boolean;
}

/** An account as operators list it: when it was made and how many keys of each mode are active. */
export interface AccountSummary {
  id: string;
  name: string;
  dateCreated: string;
  keys: Record<Mode, number>;
}

/** Key lookups are on every request: cache them briefly (settings changes show within this). */
const DEFAULT_KEY_CACHE_MS = 2000;

export class Accounts {
  private readonly cache = new Map<string, { caller: Caller | undefined; until: number }>();

  constructor(
    private readonly tables: Store['accounts'],
    private readonly cacheMs = DEFAULT_KEY_CACHE_MS,
  ) {}

  /** A new account with default settings and no keys; undefined when the name is taken. */
  async add(name: string): Promise<Account | undefined> {
    const id = newId('acct');
    if (!(await this.tables.insertAccount(id, name, nowIso()))) return undefined;
    return { id, name, settings: resolveSettings({}) };
  }

  /** A new account with one key of each mode and kind (shown once: only their hashes are kept). */
  async create(name: string): Promise<{ account: Account; keys: KeySet }> {
    const account = await this.add(name);
    if (!account) throw new Error(`an account named ${name} already exists`);
    const { id } = account;
    const keys: KeySet = {
      test: await this.createKey(id, 'test', 'secret'),
      live: await this.createKey(id, 'live', 'secret'),
      testPub: await this.createKey(id, 'test', 'publishable'),
      livePub: await this.createKey(id, 'live', 'publishable'),
    };
    return { account, keys };
  }

  async createKey(accountId: string, mode: Mode, kind: KeyKind, marks: { agent?: boolean } = {}): Promise<string> {
    const key = makeKey(mode, kind);
    await this.tables.insertApiKey({
      id: newId('key'),
      account_id: accountId,
      mode,
      kind,
      hash: hashKey(key),
      hint: keyHint(key),
      date_created: nowIso(),
      ...(marks.agent ? { agent: true } : {}),
    });
    return key;
  }

  count(): Promise<number> {
    return this.tables.countAccounts();
  }

  async byName(name: string): Promise<Account | undefined> {
    const row = await this.tables.accountNamed(name);
    return row && toAccount(row);
  }

  /** Read afresh (not from the key cache): background work acts on the settings as they are now. */
  async byId(id: string): Promise<Account | undefined> {
    const row = await this.tables.accountWithId(id);
    return row && toAccount(row);
  }

  async first(): Promise<Account | undefined> {
    const row = await this.tables.oldestAccount();
    return row && toAccount(row);
  }

  /** Every account, oldest first, with its active keys counted by mode. */
  list(): Promise<AccountSummary[]> {
    return this.tables.accountsWithKeyCounts();
  }

  /**
   * Changes one setting and records who did, in one commit. A setting that governs live mail and money
   * is refused to a test-mode key (a test key is handed to developers, scripts and agents; raising a
   * live limit is not theirs): only a live-mode key or the operator's CLI may change it.
   */
  async setSetting(accountId: string, name: SettingName, value: SettingValue, by: SettingChanger): Promise<Settings> {
    if (by.via === 'key' && by.mode !== 'live' && governsLiveMoney(name))
      throw new ApiError(
        'live_mode_required',
        `${name} governs live mail and money: change it from a live-mode session or with \`printpost settings set\`, not in test mode.`,
        403,
      );
    const stored = await this.tables.storeSetting<SettingValue>(accountId, name, value, {
      fallback: SETTINGS[name].default,
      by,
      at: nowIso(),
    });
    this.cache.clear();
    return resolveSettings(stored);
  }

  /** The account's latest setting changes, newest first. */
  async settingChanges(accountId: string, limit = 20): Promise<SettingChange[]> {
    const rows = await this.tables.recentSettingChanges(accountId, limit);
    return rows.map((row) => ({
      setting: row.setting,
      before: settingValueOf(row.value_before),
      after: settingValueOf(row.value_after),
      by:
        row.changed_via === 'key' && row.key_id && row.key_hint && row.key_mode
          ? { via: 'key', keyId: row.key_id, keyHint: row.key_hint, mode: row.key_mode }
          : { via: 'cli' },
      dateCreated: row.date_created,
    }));
  }

  /** The key a dashboard session acts with in its mode (by the hashes of the keys that opened it). */
  async sessionKey(keyHashes: string[], mode: Mode): Promise<SettingChanger | undefined> {
    const key = await this.tables.keyOfMode(keyHashes, mode);
    return key && { via: 'key', keyId: key.id, keyHint: key.hint, mode };
  }

  /** Drops the key cache: a key revoked now stops working at once in this process (others within cacheMs). */
  forget(): void {
    this.cache.clear();
  }

  /** The caller a key stands for, or undefined for a malformed, unknown or revoked key. */
  async authenticate(key: string): Promise<Caller | undefined> {
    // by the key itself, so a hit costs no hashing (createHash and digest took 12 µs a request)
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.caller;
    const shape = keyShape(key);
    if (!shape) return undefined;
    const hash = hashKey(key);
    const row = await this.tables.keyWithAccount(hash);
    const caller =
      row && sameHash(row.hash, hash) && row.mode === shape.mode && row.kind === shape.kind
        ? { account: toAccount(row), mode: shape.mode, kind: shape.kind, keyHash: hash, agent: Boolean(row.agent) }
        : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { caller, until: Date.now() + this.cacheMs });
    return caller;
  }
}

/** A recorded value (JSON) as a setting's value; anything else a setting never held, as text. */
function settingValueOf(json: string): SettingValue {
  const value: unknown = JSON.parse(json);
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : String(value);
}

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, settings: resolveSettings(JSON.parse(row.settings)) };
}
