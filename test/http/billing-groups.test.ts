// Billing groups over HTTP on both databases, and sort_by through the API: pages in either direction,
// next_url keeping the order, a cursor of the other order refused.
import { databaseSuite } from '../helpers/suite';
import { vendorResponseErrors } from '../helpers/vendorSchema';

const { test, serial } = databaseSuite();

test('create, retrieve and update; answers match the vendor schema; limits are the spec body', async (t, { api }) => {
  const created = await api('POST', '/v1/billing_groups', { json: { name: 'Marketing', description: 'Spring' } });
  t.is(created.status, 200, JSON.stringify(created.body));
  t.like(created.body, { name: 'Marketing', description: 'Spring', object: 'billing_group' });
  t.regex(created.body.id, /^bg_/);
  t.deepEqual(vendorResponseErrors('POST', '/v1/billing_groups', 200, created.body), []);
  const updated = await api('POST', `/v1/billing_groups/${created.body.id}`, { json: { name: 'Growth' } });
  t.like(updated.body, { id: created.body.id, name: 'Growth', description: 'Spring' });
  t.true(updated.body.date_modified > created.body.date_modified);
  t.deepEqual((await api('GET', `/v1/billing_groups/${created.body.id}`)).body, updated.body);
  t.is((await api('POST', '/v1/billing_groups', { json: {} })).body.error.message, 'name is required');
  t.is((await api('POST', '/v1/billing_groups', { json: { name: 'x'.repeat(256) } })).status, 422);
  t.is((await api('POST', '/v1/billing_groups/bg_missing', { json: { name: 'x' } })).status, 404);
});

serial(
  'sort_by[date_created]=asc pages oldest first; next_url keeps the order; previous_url walks back',
  async (t, { api, engine }) => {
    const account = await engine.createAccount();
    const call = (path: string) => api('GET', path, { key: account.test });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++)
      ids.push((await api('POST', '/v1/billing_groups', { key: account.test, json: { name: `g${i}` } })).body.id);
    const seen: string[] = [];
    let page = await call('/v1/billing_groups?limit=3&sort_by[date_created]=asc');
    const pages = [page];
    seen.push(...page.body.data.map((g: { id: string }) => g.id));
    while (page.body.next_url) {
      t.regex(page.body.next_url, /sort_by%5Bdate_created%5D=asc|sort_by\[date_created\]=asc/);
      page = await call(new URL(page.body.next_url).pathname + new URL(page.body.next_url).search);
      pages.push(page);
      seen.push(...page.body.data.map((g: { id: string }) => g.id));
    }
    t.deepEqual(seen, ids, 'oldest first, each once');
    const back = await call(new URL(pages[1].body.previous_url).pathname + new URL(pages[1].body.previous_url).search);
    t.deepEqual(back.body.data, pages[0].body.data);
    const desc = await call('/v1/billing_groups?limit=10&sort_by[date_created]=desc');
    t.deepEqual(
      desc.body.data.map((g: { id: string }) => g.id),
      [...ids].reverse(),
    );
    t.is((await call('/v1/billing_groups?sort_by[send_date]=asc')).status, 422, 'only declared sorts');
    t.is((await call('/v1/billing_groups?sort_by[date_created]=sideways')).status, 422);
  },
);
