// Migration 017 takes `"from":null` out of the postcards and self mailers stored before pieces without a
// sender were kept without the key, on both databases: their later events carry the stored body, so
// a body left as it was would put the null back in every webhook of theirs. Nothing else changes.
import test from 'ava';
import { migrationSource } from '../../migrations';
import { freshStore } from '../helpers/store';
import { DATABASES } from '../helpers/matrix';

const FROM = { address_line1: '185 Berry St' };

for (const db of DATABASES)
  test(`${db}: migration 017 removes a stored null from of postcards and self mailers only`, async (t) => {
    const { knex } = await freshStore(t, db);
    const names = await migrationSource.getMigrations([]);
    for (let i = 0; i < names.indexOf('017_unset_from'); i++) await knex.migrate.up({ migrationSource });
    const now = new Date().toISOString();
    await knex('accounts').insert({ id: 'acct_from', name: 'acct_from', date_created: now });
    const bodies: [string, string, Record<string, unknown>][] = [
      ['psc_null', 'postcards', { id: 'psc_null', from: null, url: 'x', merge_variables: { from: null } }],
      ['sfm_null', 'self_mailers', { id: 'sfm_null', from: null, url: 'y' }],
      ['psc_sent', 'postcards', { id: 'psc_sent', from: FROM, url: 'z' }],
      ['tmpl_other', 'templates', { id: 'tmpl_other', from: null }],
    ];
    await knex('objects').insert(
      bodies.map(([id, kind, body]) => ({
        id,
        account_id: 'acct_from',
        mode: 'live',
        kind,
        date_created: now,
        date_modified: now,
        body: JSON.stringify(body),
      })),
    );
    await knex.migrate.latest({ migrationSource });
    const stored = Object.fromEntries(
      ((await knex('objects').select('id', 'body')) as { id: string; body: string }[]).map((r) => [r.id, r.body]),
    );
    t.is(stored.psc_null, '{"id":"psc_null","url":"x","merge_variables":{"from":null}}', 'a merge variable stays');
    t.is(stored.sfm_null, '{"id":"sfm_null","url":"y"}');
    t.is(stored.psc_sent, JSON.stringify(bodies[2][2]));
    t.is(stored.tmpl_other, '{"id":"tmpl_other","from":null}', 'other kinds are not touched');
  });
