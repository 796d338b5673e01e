// The adapter that runs pg-boss's `$n` SQL through Knex: placeholders in order, repeats bound twice,
// literal question marks and quoted text left alone.
import test from 'ava';
import knex from 'knex';
import { knexDb, toKnexSql } from '../../engine/store/pg-boss-db';

test('$n become ? in order of appearance, a repeated parameter twice', (t) => {
  t.deepEqual(toKnexSql('select $2::int, $1, $2, $10'), { sql: 'select ?::int, ?, ?, ?', params: [2, 1, 2, 10] });
});

test('quoted strings, identifiers, dollar quotes and comments keep their $n; every ? is escaped', (t) => {
  const text = [
    `select '$1 it''s ?', E'\\'$2', "col$3", $tag$ $4 $tag$, $$ $5 $$ -- $6 ?`,
    `/* $7 */ from t where a = $8 and b ? 'k' and c = x$9`,
  ].join('\n');
  const { sql, params } = toKnexSql(text);
  t.deepEqual(params, [8]);
  t.is(
    sql,
    [
      `select '$1 it''s \\?', E'\\'$2', "col$3", $tag$ $4 $tag$, $$ $5 $$ -- $6 \\?`,
      `/* $7 */ from t where a = ? and b \\? 'k' and c = x$9`,
    ].join('\n'),
  );
});

test('Knex binds the values where pg-boss put them, undefined as null, and keeps literal ?', (t) => {
  const pg = knex({ client: 'pg' });
  const { sql, params } = toKnexSql(`select $2 as a, $1 as b, $2 as c, $3 as d, '?' as e`);
  const values = ['one', 'two', undefined];
  const native = pg
    .raw(
      sql,
      params.map((n) => values[n - 1] ?? null),
    )
    .toSQL()
    .toNative();
  t.is(native.sql, `select $1 as a, $2 as b, $3 as c, $4 as d, '?' as e`);
  t.deepEqual(native.bindings, ['two', 'one', 'two', null]);
});

test('a parameter pg-boss did not pass is refused', async (t) => {
  const db = knexDb(knex({ client: 'pg' }));
  await t.throwsAsync(() => db.executeSql('select $2', [1]), { message: /names \$2 but has 1 values/ });
});
