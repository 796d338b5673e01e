// pg-boss on the engine's pool, for engine/platform/jobs/postgres.ts. pg-boss speaks to PostgreSQL
// through `{ executeSql(text, values) }` with `$n` placeholders; Knex's raw queries take `?`
// placeholders in order of appearance and read every `?` as one (quotes or not). The adapter rewrites
// pg-boss's SQL for Knex so its statements run in a Knex transaction (a job committed with the
// caller's writes, a claim and its lease set together); the few statements the backend adds to
// pg-boss's own (a singleton's lock, a lease, an attempt's check, counts) are here too, so the backend
// holds no handle and writes no SQL.
import type { Knex } from 'knex';
import type PgBoss from 'pg-boss';

export interface KnexSql {
  sql: string;
  /** for each `?` of `sql`, in order, the 1-based pg-boss parameter it stands for */
  params: number[];
}

/**
 * `$n` outside quotes and comments becomes `?` (a parameter used twice is bound twice); every literal
 * `?` is escaped so Knex leaves it alone. Quoted strings, identifiers (also `x$1`), dollar-quoted
 * bodies and comments are copied as they are.
 */
export function toKnexSql(text: string): KnexSql {
  let sql = '';
  const params: number[] = [];
  let i = 0;
  const copyUntil = (end: string, from: number) => {
    const stop = text.indexOf(end, from);
    const to = stop < 0 ? text.length : stop + end.length;
    sql += escapeMarks(text.slice(i, to));
    i = to;
  };
  const PARAM = /\$(\d+)/y;
  const TAG = /\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/y;
  while (i < text.length) {
    const c = text[i];
    if (c === "'") copyUntil("'", nextQuote(text, i + 1));
    else if (c === '"') copyUntil('"', i + 1);
    else if (text.startsWith('--', i)) copyUntil('\n', i);
    else if (text.startsWith('/*', i)) copyUntil('*/', i + 2);
    // a `$` after a word character belongs to an identifier (x$1)
    else if (c === '$' && !/\w/.test(text[i - 1] ?? '')) {
      PARAM.lastIndex = TAG.lastIndex = i;
      const param = PARAM.exec(text);
      const tag = TAG.exec(text);
      if (param) {
        params.push(Number(param[1]));
        sql += '?';
        i += param[0].length;
      } else if (tag) copyUntil(tag[0], i + tag[0].length);
      else {
        sql += c;
        i++;
      }
    } else {
      sql += c === '?' ? '\\?' : c;
      i++;
    }
  }
  return { sql, params };
}

/** Where a single-quoted string opened before `from` ends ('' is a quote inside it; E'' strings take \'). */
function nextQuote(text: string, from: number): number {
  const escapes = /[Ee]$/.test(text.slice(0, from - 1)) && !/\w[Ee]$/.test(text.slice(0, from - 1));
  for (let i = from; i < text.length; i++) {
    if (escapes && text[i] === '\\') i++;
    else if (text[i] === "'") {
      if (text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}

function escapeMarks(s: string): string {
  return s.replace(/\?/g, '\\?');
}

// pg-boss builds a handful of statements once each: rewrite each once.
const rewritten = new Map<string, KnexSql>();

function cachedKnexSql(text: string): KnexSql {
  let found = rewritten.get(text);
  if (!found) {
    found = toKnexSql(text);
    if (rewritten.size < 200) rewritten.set(text, found);
  }
  return found;
}

/** pg-boss's database, running its statements on a Knex instance or transaction. */
export function knexDb(knex: Knex): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const { sql, params } = cachedKnexSql(text);
      const bindings = params.map((n) => {
        if (n < 1 || n > values.length) throw new Error(`pg-boss SQL names $${n} but has ${values.length} values`);
        return (values[n - 1] ?? null) as Knex.Value;
      });
      const result = (await knex.raw(sql, bindings)) as { rows?: unknown[] };
      return { rows: result.rows ?? [] };
    },
  };
}

/**
 * A transaction on the engine's pool that pg-boss's statements run in: one object per transaction, so
 * the backend can gather what it sends in the same one.
 */
export interface PgBossTransaction {
  /** pg-boss's `db` option: its statements in this transaction */
  readonly db: PgBoss.Db;
  /**
   * Takes the lock of a singleton key until the commit (so a racing send sees this job) and says
   * whether the key already has a job queued or active.
   */
  singletonTaken(schema: string, name: string, key: string): Promise<boolean>;
  /** sets the lease of jobs just fetched (pg-boss reads it at expiry) */
  setLease(schema: string, name: string, ids: readonly string[], leaseMs: number): Promise<void>;
  /** whether the attempt is still the job's current one, its row locked to the commit */
  lockCurrentAttempt(schema: string, name: string, id: string, retryCount: number): Promise<boolean>;
}

const transactions = new WeakMap<Knex, PgBossTransaction>();

/** The commit's transaction as pg-boss's (one object per transaction). */
export function pgBossTransaction(trx: Knex): PgBossTransaction {
  let found = transactions.get(trx);
  if (!found) {
    found = {
      db: knexDb(trx),
      async singletonTaken(schema, name, key) {
        await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`${schema}:${name}:${key}`]);
        const { rows } = (await trx.raw(
          `select 1 from ${schema}.job where name = ? and singleton_key = ? and state < 'completed' limit 1`,
          [name, key],
        )) as { rows: unknown[] };
        return rows.length > 0;
      },
      async setLease(schema, name, ids, leaseMs) {
        await trx.raw(
          `update ${schema}.job set expire_in = ? * interval '1 millisecond' where name = ? and id = any(?::uuid[])`,
          [leaseMs, name, [...ids]],
        );
      },
      async lockCurrentAttempt(schema, name, id, retryCount) {
        const { rows } = (await trx.raw(
          `select 1 from ${schema}.job where name = ? and id = ? and state = 'active' and retry_count = ? for update`,
          [name, id, retryCount],
        )) as { rows: unknown[] };
        return rows.length > 0;
      },
    };
    transactions.set(trx, found);
  }
  return found;
}

/** pg-boss's tables as the backend works them outside a transaction of its own. */
export interface PgBossTables {
  /** `fn` in a transaction on the engine's pool */
  inTransaction<T>(fn: (tx: PgBossTransaction) => Promise<T>): Promise<T>;
  /** completes the attempt while it is still the job's current one */
  completeAttempt(schema: string, name: string, id: string, retryCount: number): Promise<void>;
  /**
   * hands a running attempt back, due now: with no start time pg-boss's next fetch does not count it
   * as a retry, so the attempt is not spent
   */
  releaseAttempt(schema: string, name: string, id: string, retryCount: number): Promise<void>;
  /** queued jobs by name: how many, and how long (ms) the oldest due one has waited (null: none due) */
  waiting(schema: string): Promise<{ name: string; queued: string; oldest_due_ms: string | null }[]>;
  /** jobs by state, of one name or all */
  countByState(schema: string, name?: string): Promise<{ state: string; n: string }[]>;
}

export function pgBossTables(knex: Knex): PgBossTables {
  return {
    inTransaction: (fn) => knex.transaction((trx) => fn(pgBossTransaction(trx))),
    async completeAttempt(schema, name, id, retryCount) {
      await knex.raw(
        `update ${schema}.job set state = 'completed', completed_on = now()
         where name = ? and id = ? and state = 'active' and retry_count = ?`,
        [name, id, retryCount],
      );
    },
    async releaseAttempt(schema, name, id, retryCount) {
      await knex.raw(
        `update ${schema}.job set state = 'created', started_on = null, start_after = now()
         where name = ? and id = ? and state = 'active' and retry_count = ?`,
        [name, id, retryCount],
      );
    },
    async waiting(schema) {
      const result: { rows: { name: string; queued: string; oldest_due_ms: string | null }[] } = await knex.raw(
        `select name, count(*) as queued,
           extract(epoch from now() - min(start_after) filter (where start_after <= now())) * 1000 as oldest_due_ms
         from ${schema}.job where state in ('created', 'retry') group by name`,
      );
      return result.rows;
    },
    async countByState(schema, name) {
      const { rows } = (await knex.raw(
        `select state, count(*) as n from ${schema}.job ${name === undefined ? '' : 'where name = ?'} group by state`,
        name === undefined ? [] : [name],
      )) as { rows: { state: string; n: string }[] };
      return rows;
    },
  };
}
