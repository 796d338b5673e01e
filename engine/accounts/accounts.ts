// Accounts, their keys and settings.
import type { Knex } from 'knex';
import type { Mode } from '../catalog/types';
import { newId } from '../util/ids';
import { nowIso } from '../util/time';
import { hashKey, keyHint, keyShape, makeKey, sameHash, type KeyKind } from './keys';
import { resolveSettings, type SettingName, type SettingValue, type Settings } from './settings';

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
}

/** An account as operators list it: when it was made and how many keys of each mode are active. */
export interface AccountSummary {
  id: string;
  name: string;
  dateCreated: string;
  keys: Record<Mode, number>;
}

interface AccountRow {
  id: string;
  name: string;
  settings: string;
}

/** Key lookups are on every request: cache them briefly (settings changes show within this). */
const DEFAULT_KEY_CACHE_MS = 2000;

export class Accounts {
  private readonly cache = new Map<string, { caller: Caller | undefined; until: number }>();

  constructor(
    private readonly knex: Knex,
    private readonly cacheMs = DEFAULT_KEY_CACHE_MS,
  ) {}

  /** A new account with default settings and no keys; undefined when the name is taken. */
  async add(name: string): Promise<Account | undefined> {
    const id = newId('acct');
    try {
      await this.knex('accounts').insert({ id, name, settings: '{}', date_created: nowIso() });
    } catch (error) {
      if (isUniqueViolation(error)) return undefined;
      throw error;
    }
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

  async createKey(accountId: string, mode: Mode, kind: KeyKind): Promise<string> {
    const key = makeKey(mode, kind);
    await this.knex('api_keys').insert({
      id: newId('key'),
      account_id: accountId,
      mode,
      kind,
      hash: hashKey(key),
      hint: keyHint(key),
      date_created: nowIso(),
    });
    return key;
  }

  async count(): Promise<number> {
    const row = (await this.knex('accounts').count({ n: '*' }).first()) as { n: number | string } | undefined;
    return Number(row?.n ?? 0);
  }

  async byName(name: string): Promise<Account | undefined> {
    const row = (await this.knex('accounts').where({ name }).first()) as AccountRow | undefined;
    return row && toAccount(row);
  }

  async first(): Promise<Account | undefined> {
    const row = (await this.knex('accounts').orderBy('date_created').first()) as AccountRow | undefined;
    return row && toAccount(row);
  }

  /** Every account, oldest first, with its active keys counted by mode. */
  async list(): Promise<AccountSummary[]> {
    const rows = (await this.knex('accounts').orderBy(['date_created', 'id']).select('id', 'name', 'date_created')) as {
      id: string;
      name: string;
      date_created: string;
    }[];
    const counts = (await this.knex('api_keys')
      .whereNull('date_revoked')
      .groupBy('account_id', 'mode')
      .select('account_id', 'mode')
      .count({ n: '*' })) as { account_id: string; mode: Mode; n: number | string }[];
    return rows.map((row) => {
      const keys: Record<Mode, number> = { test: 0, live: 0 };
      for (const c of counts) if (c.account_id === row.id) keys[c.mode] = Number(c.n);
      return { id: row.id, name: row.name, dateCreated: row.date_created, keys };
    });
  }

  async setSetting(accountId: string, name: SettingName, value: SettingValue): Promise<Settings> {
    return this.knex.transaction(async (trx) => {
      const row = (await trx('accounts').where({ id: accountId }).first()) as AccountRow;
      const stored = { ...JSON.parse(row.settings), [name]: value };
      await trx('accounts')
        .where({ id: accountId })
        .update({ settings: JSON.stringify(stored) });
      this.cache.clear();
      return resolveSettings(stored);
    });
  }

  /** The caller a key stands for, or undefined for a malformed, unknown or revoked key. */
  async authenticate(key: string): Promise<Caller | undefined> {
    const shape = keyShape(key);
    if (!shape) return undefined;
    const hash = hashKey(key);
    const hit = this.cache.get(hash);
    if (hit && hit.until > Date.now()) return hit.caller;
    const row = (await this.knex('api_keys as k')
      .join('accounts as a', 'a.id', 'k.account_id')
      .where('k.hash', hash)
      .whereNull('k.date_revoked')
      .first('k.hash', 'k.mode', 'k.kind', 'a.id', 'a.name', 'a.settings')) as
      (AccountRow & { hash: string; mode: Mode; kind: KeyKind }) | undefined;
    const caller =
      row && sameHash(row.hash, hash) && row.mode === shape.mode && row.kind === shape.kind
        ? { account: toAccount(row), mode: row.mode, kind: row.kind, keyHash: hash }
        : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(hash, { caller, until: Date.now() + this.cacheMs });
    return caller;
  }
}

/** A unique index refused the row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

function toAccount(row: AccountRow): Account {
  return { id: row.id, name: row.name, settings: resolveSettings(JSON.parse(row.settings)) };
}
