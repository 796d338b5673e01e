// GET /v1/events filters (both databases): several types at once (commas or the parameter repeated),
// the object an event is about (reference_id), both together; an unknown type is 422, not an empty page.
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { TO } from '../../helpers/mail';

const { test } = databaseSuite();

test('events are filtered by several types and by the object they are about', async (t, { engine }) => {
  const api = client(engine.url, (await engine.createAccount()).test);
  // events sort by their millisecond stamps (ties by id): each step a few milliseconds after the last
  const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
  const a = (await api('POST', '/v1/addresses', { json: { ...TO, name: 'Filter A' } })).body.id as string;
  await pause();
  const b = (await api('POST', '/v1/addresses', { json: { ...TO, name: 'Filter B' } })).body.id as string;
  await pause();
  await api('DELETE', `/v1/addresses/${a}`);
  await pause();
  const bank = await api('POST', '/v1/bank_accounts', {
    json: { routing_number: '322271627', account_number: '123456789', account_type: 'company', signatory: 'Ada' },
  });
  t.is(bank.status, 200, JSON.stringify(bank.body));
  const types = async (query: string) => {
    const reply = await api('GET', `/v1/events?limit=100&${query}`);
    t.is(reply.status, 200, `${query}: ${JSON.stringify(reply.body)}`);
    return (reply.body.data as { event_type: { id: string }; reference_id: string }[]).map(
      (e) => `${e.event_type.id} ${e.reference_id}`,
    );
  };
  t.deepEqual(await types('event_type=address.created,address.deleted'), [
    `address.deleted ${a}`,
    `address.created ${b}`,
    `address.created ${a}`,
  ]);
  t.deepEqual(await types('event_type=address.deleted&event_type=bank_account.created'), [
    `bank_account.created ${bank.body.id}`,
    `address.deleted ${a}`,
  ]);
  t.deepEqual(await types(`reference_id=${a}`), [`address.deleted ${a}`, `address.created ${a}`]);
  t.deepEqual(await types(`reference_id=${a}&event_type=address.created`), [`address.created ${a}`]);
  t.deepEqual(await types(`reference_id=${b}&event_type=address.deleted`), []);

  const unknown = await api('GET', '/v1/events?event_type=address.created,postcard.exploded');
  t.is(unknown.status, 422);
  t.like(unknown.body.error, { code: 'invalid', status_code: 422 });
  t.regex(unknown.body.error.message, /postcard\.exploded/);
  t.is((await api('GET', '/v1/events?reference_id=not%20an%20id')).status, 422);
});
