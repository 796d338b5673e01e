// Migration 015 marks the senders of what exists already as return addresses (both databases): a
// piece's inline `from` (its `from.id`) and a creative's `from` (an id), and nothing else; down and up
// again leave the same marks.
import test from 'ava';
import { migrationSource } from '../../migrations';
import { DATABASES } from '../helpers/matrix';
import { freshStore } from '../helpers/store';

const row = (id: string, kind: string, body: Record<string, unknown>) => ({
  id,
  account_id: 'acct_1',
  mode: 'test',
  kind,
  date_created: '2026-11-01T00:00:00.000Z',
  date_modified: '2026-11-01T00:00:00.000Z',
  deleted: false,
  body: JSON.stringify({ id, ...body }),
});

for (const db of DATABASES)
  test(`${db}: migration 015 marks existing senders as return addresses`, async (t) => {
    const { knex } = await freshStore(t, db);
    const names = await migrationSource.getMigrations([]);
    for (let i = 0; i < names.indexOf('015_campaign_mailings'); i++) await knex.migrate.up({ migrationSource });
    await knex('objects').insert([
      row('adr_sender', 'addresses', { name: 'US' }),
      row('adr_recipient', 'addresses', { name: 'THEM', metadata: { from: 'x' } }),
      row('psc_1', 'postcards', { to: { id: 'adr_recipient' }, from: { id: 'adr_sender' } }),
      row('psc_2', 'postcards', { to: { id: 'adr_recipient' }, from: null }),
      row('crv_1', 'creatives', { from: 'adr_creative_sender' }),
    ]);
    await knex.migrate.up({ migrationSource });
    const marked = async () =>
      (
        (await knex('return_addresses').select('address_id', 'account_id', 'mode').orderBy('address_id')) as unknown[]
      ).map((r) => ({ ...(r as object) }));
    const expected = [
      { address_id: 'adr_creative_sender', account_id: 'acct_1', mode: 'test' },
      { address_id: 'adr_sender', account_id: 'acct_1', mode: 'test' },
    ];
    t.deepEqual(await marked(), expected);
    await knex.migrate.down({ migrationSource });
    await knex.migrate.up({ migrationSource });
    t.deepEqual(await marked(), expected);
  });
