// The dashboard's forms meet the API's text rules (both databases): a campaign named with a bidi
// override is refused with the field named, as the API refuses it, and nothing is stored.
import { databaseSuite } from '../../helpers/suite';
import { signInHttp } from './harness';

const suite = databaseSuite();

suite.test('a dashboard form holding a bidi control is refused naming the field, as the API does', async (t, ctx) => {
  const { engine, api } = ctx;
  const session = await signInHttp(engine.url, engine.keys.test);
  const before = (await api('GET', '/v1/campaigns?limit=100')).body.data.length as number;
  const form = { name: 'Spring\u202e', use_type: 'marketing', send_date: '', cron: '', time_zone: 'UTC' };
  const reply = await session.post('/dashboard/campaigns/new', form, '/dashboard/campaigns/new');
  t.is(reply.status, 422, reply.text.slice(0, 300));
  t.regex(reply.text, /name must not contain bidi formatting characters \(U\+202E\)/);
  t.is((await api('GET', '/v1/campaigns?limit=100')).body.data.length, before, 'no campaign stored');
  const viaApi = await api('POST', '/v1/campaigns', {
    json: { name: form.name, schedule_type: 'immediate', use_type: 'marketing' },
  });
  t.is(viaApi.status, 422);
  t.regex(viaApi.body.error.message, /^name must not contain bidi formatting characters \(U\+202E\)/);
});
