// Finds objects by the text of top-level string fields of their stored body, in one bounded query.
// LIKE on the body is spelled the same on SQLite and PostgreSQL and needs no new column: the query
// walks the scope index (account, mode, kind, deleted, date_created) newest first and the database,
// not the engine, skips the bodies that cannot match. Bodies are JSON.stringify output, so
// `"field":"TEXT` marks the field's value; a nested key of the same name (metadata) or, for
// `wordStartsWith`, a later field can also match: the result is a superset, callers re-check it.
import type { Knex } from 'knex';
import type { Reader } from './reader';
import type { ApiObject, Scope } from './objects';
import { parseStored } from './stored';

export type BodyMatch =
  | { field: string; equals: string }
  | { field: string; startsWith: string }
  /** the value starts with the text, or has it after a space */
  | { field: string; wordStartsWith: string };

export interface BodySearch {
  /** every one of these matches */
  all?: BodyMatch[];
  /** and at least one of these (when any are given) */
  any?: BodyMatch[];
  limit: number;
}

/** The text as it appears inside a JSON string, with LIKE's wildcards (and its escape, `!`) escaped. */
const literal = (text: string) => JSON.stringify(text).slice(1, -1).replace(/[!%_]/g, '!$&');

function patterns(m: BodyMatch): string[] {
  const key = `%"${literal(m.field)}":"`;
  if ('equals' in m) return [`${key}${literal(m.equals)}"%`];
  if ('startsWith' in m) return [`${key}${literal(m.startsWith)}%`];
  return [`${key}${literal(m.wordStartsWith)}%`, `${key}% ${literal(m.wordStartsWith)}%`];
}

const anyLike = (q: Knex.QueryBuilder, list: string[]) => {
  for (const p of list) q.orWhereRaw("?? like ? escape '!'", ['body', p]);
};

/** Newest first, at most `limit` objects of this scope and kind whose body may match. */
export async function searchBodies(
  knex: Knex,
  reader: Reader,
  scope: Scope,
  kind: string,
  search: BodySearch,
): Promise<ApiObject[]> {
  const query = knex('objects')
    .select('body')
    .where({ account_id: scope.accountId, mode: scope.mode, kind, deleted: false });
  for (const m of search.all ?? []) query.where((q) => anyLike(q, patterns(m)));
  if (search.any?.length) query.where((q) => anyLike(q, search.any!.flatMap(patterns)));
  query
    .orderBy([
      { column: 'date_created', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(search.limit);
  const rows = await reader.all<{ body: string }>(query);
  return rows.map((r) => parseStored(kind, r.body));
}
