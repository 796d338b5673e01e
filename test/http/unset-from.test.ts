// A postcard or self mailer without a sender has no `from` key at all, never `"from": null` (the
// vendor's schema types from as an address and refuses null; schema-checking clients then refuse the
// whole list): not in the create answer, a retrieve, a list page, GET /v1/events nor a webhook's body.
// A piece with a sender keeps it.
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';
import { startReceiver } from '../helpers/receiver';
import { FROM, pieceVendorErrors, postcard, selfMailer } from '../helpers/mail';

const { test } = databaseSuite({ env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8', WEBHOOK_RETRY_BASE_MS: '50' } });

type Piece = Record<string, unknown> & { id: string };
type Event = { reference_id: string; body: Piece };

for (const [kind, object, make] of [
  ['postcards', 'postcard', postcard],
  ['self_mailers', 'self_mailer', selfMailer],
] as const)
  test(`${kind} without from leave the key out everywhere, with from keep it`, async (t, { engine }) => {
    const name = `from-${Math.random().toString(36).slice(2)}`;
    const keys = await engine.createAccount(name);
    const api = client(engine.url, keys.test);
    const receiver = await startReceiver();
    try {
      const hook = await api('POST', '/v1/webhooks', {
        json: { url: receiver.url, event_types: [`${object}.created`] },
      });
      t.is(hook.status, 200, JSON.stringify(hook.body));
      const { from: _from, ...body } = make();
      const bare = await api<Piece>('POST', `/v1/${kind}`, { json: body });
      t.is(bare.status, 200, JSON.stringify(bare.body));
      const sent = await api<Piece>('POST', `/v1/${kind}`, { json: make() });
      t.false('from' in bare.body, 'create');
      t.regex(String((sent.body.from as Piece | undefined)?.address_line1), new RegExp(FROM.address_line1, 'i'));

      const fetched = await api<Piece>('GET', `/v1/${kind}/${bare.body.id}`);
      t.false('from' in fetched.body, 'retrieve');
      const listed = await api<{ data: Piece[] }>('GET', `/v1/${kind}?limit=10`);
      const row = listed.body.data.find((p) => p.id === bare.body.id);
      t.truthy(row);
      t.false('from' in (row ?? {}), 'list');
      t.true('from' in (listed.body.data.find((p) => p.id === sent.body.id) ?? {}));
      t.deepEqual(pieceVendorErrors('GET', `/v1/${kind}`, listed.body), [], 'the list validates against the vendor');

      const events = await api<{ data: Event[] }>('GET', `/v1/events?event_type=${object}.created`);
      const event = events.body.data.find((e) => e.reference_id === bare.body.id);
      t.truthy(event);
      t.false('from' in (event?.body ?? {}), 'GET /v1/events');
      const delivered = (await receiver.waitFor(2)).map((r) => JSON.parse(r.body) as Event);
      const hooked = delivered.find((e) => e.reference_id === bare.body.id);
      t.truthy(hooked);
      t.false('from' in (hooked?.body ?? {}), 'webhook body');
      t.true('from' in (delivered.find((e) => e.reference_id === sent.body.id)?.body ?? {}));
    } finally {
      await receiver.close();
    }
  });
