// A key the operator marks as an agent's (`printpost keys create --agent`) meets the agent limits on
// the plain API, without the MCP server: no live mail without agents_send_live, no check above
// agent_max_check_amount, a send date past the cancellation window; an unmarked key meets none of
// them. The confirmation routes refuse a token for a preview that does not exist and a forged token.
import { databaseSuite } from '../helpers/suite';
import { run } from '../helpers/cli';
import { check, ok, postcard, verifiedBankAccount } from '../helpers/mail';
import { client } from '../helpers/http';
import type { TestEngine } from '../helpers/engine';

const { serial } = databaseSuite({
  settings: { payment_method_verified: true, email_verified: true, rate_limit_per_5s: 100000 },
});

async function agentKey(engine: TestEngine, mode: 'test' | 'live'): Promise<string> {
  const ran = await run(['keys', 'create', '--mode', mode, '--agent'], { DATABASE_URL: engine.databaseUrl }, 180_000);
  if (ran.code !== 0) throw new Error(`keys create exited ${ran.code}: ${ran.err}`);
  return ran.out.trim();
}

serial('an agent key: live mail refused, checks capped, send date past the window', async (t, { engine, api }) => {
  const agent = client(engine.url, await agentKey(engine, 'test'));
  const bank = await verifiedBankAccount(agent);
  const large = await agent('POST', '/v1/checks', { json: check(bank, { amount: 600 }) });
  t.is(large.status, 403);
  t.is(large.body.error.code, 'agent_limit_reached');
  t.regex(large.body.error.message, /at most 500 dollars/);

  const before = Date.now();
  const small = await ok(agent, 'POST', '/v1/checks', check(bank));
  t.true(Date.parse(String(small.send_date)) >= before + 5 * 60_000, 'after the 5-minute cancellation window');
  const plain = await ok(api, 'POST', '/v1/postcards', postcard());
  t.is(plain.send_date, plain.date_created, 'an unmarked key sends as asked');

  const live = client(engine.url, await agentKey(engine, 'live'));
  const refused = await live('POST', '/v1/postcards', { json: postcard() });
  t.is(refused.status, 403);
  t.is(refused.body.error.code, 'agent_live_mail_not_allowed');
  const human = await client(engine.url, engine.keys.live)('POST', '/v1/postcards', { json: postcard() });
  t.is(human.status, 200, 'the live key of a person is not held');
});

serial('confirmation tokens: none without a preview, a forged one refused', async (t, { api }) => {
  const payload = postcard();
  const issued = await api('POST', '/v1/agent/confirmations', {
    json: { tool: 'send_postcard', payload, preview_id: 'psc_0000000000000000' },
  });
  t.is(issued.status, 404);
  const forged = await api('POST', '/v1/agent/confirmations/redeem', {
    json: { tool: 'send_postcard', payload, token: 'cfm_zzzzzz.abc.def' },
  });
  t.is(forged.status, 403);
  t.is(forged.body.error.code, 'confirmation_mismatch');
  const unknownTool = await api('POST', '/v1/agent/confirmations', { json: { tool: 'send_anything', payload } });
  t.is(unknownTool.status, 422);
});
