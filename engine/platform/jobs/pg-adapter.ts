// pg-boss speaks to PostgreSQL through `{ executeSql(text, values) }` with `$n` placeholders; Knex's
// raw queries take `?` placeholders in order of appearance and read every `?` as one (quotes or not).
// The adapter rewrites pg-boss's SQL for Knex so its statements run in a Knex transaction (a job
// committed with the caller's writes, a claim and its lease set together).
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
