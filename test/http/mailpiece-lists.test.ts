// Mailpiece lists on both databases: the spec's and the compat notes' filters and sort, in every query form
// the official clients send (brackets, JSON values, repeated pairs), paged to the end.
import type { ExecutionContext } from 'ava';
import { databaseSuite } from '../helpers/suite';
import { type client } from '../helpers/http';
import { daysAhead, pieceVendorErrors, postcard } from '../helpers/mail';

const { serial } = databaseSuite();

type Api = ReturnType<typeof client>;

/** Every id a query lists, walking next_url to the end. */
async function walk(api: Api, path: string): Promise<string[]> {
  const ids: string[] = [];
  let next: string | null = path;
  while (next) {
    const reply: { status: number; body: any } = await api('GET', next);
    if (reply.status !== 200) throw new Error(`${next}: ${JSON.stringify(reply.body)}`);
    ids.push(...reply.body.data.map((p: { id: string }) => p.id));
    next = reply.body.next_url ? new URL(reply.body.next_url).pathname + new URL(reply.body.next_url).search : null;
  }
  return ids;
}

const pieces: { id: string; size: string; send_date: string; date_created: string; mail_type: string }[] = [];

async function seed(t: ExecutionContext, api: Api): Promise<string> {
  const batch = `lists-${Math.random().toString(36).slice(2)}`;
  const plans = [
    { size: '4x6' },
    { size: '6x9', send_date: daysAhead(3) },
    { size: '6x11', mail_type: 'usps_standard' },
    { size: '4x6', send_date: daysAhead(1) },
    { size: '6x9', mail_type: 'usps_standard', send_date: daysAhead(2) },
    { size: '6x11' },
    { size: '4x6', send_date: daysAhead(5) },
  ];
  pieces.length = 0;
  for (const plan of plans) {
    const reply = await api('POST', '/v1/postcards', { json: postcard({ ...plan, metadata: { batch } }) });
    t.is(reply.status, 200, JSON.stringify(reply.body));
    pieces.push(reply.body);
  }
  return batch;
}

const newestFirst = (list: typeof pieces) => [...list].reverse().map((p) => p.id);

serial(
  'filters by size, scheduled, send_date and mail_type in bracket, JSON and repeated forms',
  async (t, { api }) => {
    const batch = await seed(t, api);
    const m = `metadata[batch]=${batch}&limit=2`;
    const expectIds = (keep: (p: (typeof pieces)[number]) => boolean) => newestFirst(pieces.filter(keep));

    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&size[]=4x6&size[]=6x11`),
      expectIds((p) => p.size !== '6x9'),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&size=${encodeURIComponent('["6x9"]')}`),
      expectIds((p) => p.size === '6x9'),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&size=6x9&size=6x11`),
      expectIds((p) => p.size !== '4x6'),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&scheduled=true`),
      expectIds((p) => p.send_date > p.date_created),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&scheduled=false`),
      expectIds((p) => p.send_date === p.date_created),
    );
    const cut = daysAhead(2.5);
    t.deepEqual(
      await walk(
        api,
        `/v1/postcards?${m}&send_date[gt]=${encodeURIComponent(new Date().toISOString())}&send_date[lt]=${encodeURIComponent(cut)}`,
      ),
      expectIds((p) => p.send_date > p.date_created && p.send_date < cut),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&send_date=${encodeURIComponent(JSON.stringify({ gte: cut }))}`),
      expectIds((p) => p.send_date >= cut),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&mail_type=usps_standard`),
      expectIds((p) => p.mail_type === 'usps_standard'),
    );
    t.deepEqual(await walk(api, `/v1/postcards?${m}&status=processed`), newestFirst(pieces));
    t.deepEqual(await walk(api, `/v1/postcards?${m}&status=rendered`), []);
    t.deepEqual(await walk(api, `/v1/postcards?${m}&campaign_id=cmp_none`), []);
  },
);

serial(
  'sort_by send_date or date_created, either direction, pages in order; the list matches the vendor schema',
  async (t, { api }) => {
    const batch = await seed(t, api);
    const m = `metadata[batch]=${batch}&limit=3`;
    const bySend = [...pieces].sort((a, b) =>
      a.send_date === b.send_date ? (a.id < b.id ? -1 : 1) : a.send_date < b.send_date ? -1 : 1,
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&sort_by[send_date]=asc`),
      bySend.map((p) => p.id),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&sort_by=${encodeURIComponent('{"send_date":"desc"}')}`),
      bySend.map((p) => p.id).reverse(),
    );
    t.deepEqual(
      await walk(api, `/v1/postcards?${m}&sort_by[date_created]=asc`),
      pieces.map((p) => p.id),
    );
    const both = await api('GET', `/v1/postcards?${m}&sort_by[send_date]=asc&sort_by[date_created]=asc`);
    t.is(both.status, 422, 'only one sort at a time');
    const page = await api('GET', `/v1/postcards?${m}&include[]=total_count`);
    t.is(page.body.total_count, pieces.length);
    t.deepEqual(pieceVendorErrors('GET', '/v1/postcards', page.body), []);
  },
);

serial('every kind lists with its filters; a filter value outside its enum is 422', async (t, { api }) => {
  for (const path of ['/v1/self_mailers', '/v1/letters', '/v1/checks', '/v1/snap_packs']) {
    const reply = await api('GET', `${path}?limit=1&scheduled=false&status=processed&sort_by[send_date]=desc`);
    t.is(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
    t.is(reply.body.object, 'list');
  }
  t.is((await api('GET', '/v1/letters?color=true')).status, 200);
  t.is((await api('GET', '/v1/postcards?size[]=5x7')).status, 422);
  t.is((await api('GET', '/v1/postcards?status=mailed')).status, 422);
  t.is((await api('GET', '/v1/postcards?scheduled=maybe')).status, 422);
  t.is((await api('GET', '/v1/checks?size[]=4x6')).status, 422, 'checks have no size');
});
