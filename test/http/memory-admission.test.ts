// Memory admission: over MAX_RSS_MB the engine refuses requests that bring work with the spec's 503 and
// Retry-After before reading them, while reads and GET /health still answer. An engine's resident
// memory is far over 1 MB, so that ceiling holds it over the limit for the whole test.
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { TO } from '../helpers/mail';

let engine: TestEngine;
test.before(async () => {
  engine = await startEngine({ env: { MAX_RSS_MB: '1' } });
});
test.after.always(() => engine?.close());

test('over the ceiling, a POST gets 503 with Retry-After; GET /health and reads answer', async (t) => {
  const call = client(engine.url, engine.keys.test);
  const refused = await call('POST', '/v1/addresses', { json: TO });
  t.is(refused.status, 503);
  t.is(refused.headers.get('retry-after'), '10');
  t.like(refused.body, { error: { code: 'service_unavailable', status_code: 503 } });
  t.regex((refused.body as { error: { message: string } }).error.message, /over its limit of 1 MB/);

  const form = await call('POST', '/v1/addresses', { form: 'name=A&address_line1=1+Main+St' });
  t.is(form.status, 503, 'a form body too');
  t.is((await call('PATCH', '/v1/addresses/adr_0123456789abcdef')).status, 503, 'and a PATCH');

  const health = await fetch(`${engine.url}/health`);
  t.is(health.status, 200);
  t.like(await health.json(), { status: 'ok' });
  const list = await call('GET', '/v1/addresses');
  t.is(list.status, 200);
  t.deepEqual((list.body as { data: unknown[] }).data, [], 'the refused creates took nothing');
});
