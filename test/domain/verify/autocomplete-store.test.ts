// Live autocomplete reads its candidates in one query: the body filter of engine/store/body-search.ts,
// on SQLite (through the read connection) and PostgreSQL alike.
import test from 'ava';
import type { Scope } from '../../../engine/store/objects';
import type { BodySearch } from '../../../engine/store/body-search';
import { DATABASES } from '../../helpers/matrix';
import { openFreshServices } from '../../helpers/services';

const open = openFreshServices;

const scope: Scope = { accountId: 'acct_search', mode: 'live' };

for (const db of DATABASES) {
  test(`${db}: one query returns the newest bodies whose fields can match; LIKE wildcards are literal`, async (t) => {
    const { services, cleanup } = await open(db);
    try {
      const lines = ['185 BERRY ST', '210 KING ST', '1 BERRYESSA WAY', 'BERRY LN', '5 X%Y ST', '6 XZY ST'];
      for (const [i, line] of lines.entries()) {
        const at = `2030-01-01T00:00:0${i}.000Z`;
        await services.objects.insert(scope, 'addresses', {
          id: `adr_${i}`,
          date_created: at,
          date_modified: at,
          address_line1: line,
          address_state: i === 1 ? 'NY' : 'CA',
          address_country: 'UNITED STATES',
          metadata: {},
        });
      }
      await services.objects.insert({ ...scope, mode: 'test' }, 'addresses', {
        id: 'adr_t',
        date_created: '2030-01-02T00:00:00.000Z',
        date_modified: '2030-01-02T00:00:00.000Z',
        address_line1: 'BERRY CT',
        metadata: {},
      });
      const ids = async (search: BodySearch) =>
        (await services.store.bodySearch.searchBodies(scope, 'addresses', search)).map((o) => o.id);
      t.deepEqual(await ids({ any: [{ field: 'address_line1', wordStartsWith: 'BERRY' }], limit: 10 }), [
        'adr_3',
        'adr_2',
        'adr_0',
      ]);
      t.deepEqual(await ids({ any: [{ field: 'address_line1', startsWith: 'BERRY' }], limit: 10 }), ['adr_3']);
      t.deepEqual(
        await ids({ any: [{ field: 'address_line1', wordStartsWith: 'BERRY' }], limit: 2 }),
        ['adr_3', 'adr_2'],
        'newest first, bounded',
      );
      t.deepEqual(await ids({ all: [{ field: 'address_state', equals: 'NY' }], limit: 10 }), ['adr_1']);
      t.deepEqual(await ids({ any: [{ field: 'address_line1', startsWith: '5 X%' }], limit: 10 }), ['adr_4']);
      t.deepEqual(await ids({ any: [{ field: 'address_line1', startsWith: '6 X_' }], limit: 10 }), []);
    } finally {
      await cleanup();
    }
  });
}
