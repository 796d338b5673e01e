// Bank accounts over HTTP on both databases: the spec's fields and limits, the ABA checksum, verify in
// test mode (any two amounts) and live mode (the recorded micro-deposits, read with the CLI), events.
import { spawnSync } from 'node:child_process';
import knex from 'knex';
import { databaseSuite } from '../helpers/suite';
import { BIN } from '../helpers/cli';
import { vendorResponseErrors } from '../helpers/vendorSchema';

const { test, serial } = databaseSuite({ settings: { payment_method_verified: true, email_verified: true } });

/** signature_url is null without a signature: the vendor marks it nullable (allOf [$ref, {nullable: true}]). */
const vendorErrors = (method: string, path: string, body: unknown) => vendorResponseErrors(method, path, 200, body);

const ACCOUNT = {
  routing_number: '322271627',
  account_number: '123456789',
  account_type: 'company',
  signatory: 'Jane Doe',
};

test('create returns an unverified account with every field; the answer matches the vendor schema', async (t, {
  api,
}) => {
  const reply = await api('POST', '/v1/bank_accounts', {
    json: { ...ACCOUNT, description: 'Payroll', metadata: { team: 'ops' } },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.like(reply.body, {
    ...ACCOUNT,
    description: 'Payroll',
    check_template: 'common',
    verified: false,
    object: 'bank_account',
    signature_url: null,
  });
  t.regex(reply.body.id, /^bank_/);
  t.deepEqual(vendorErrors('POST', '/v1/bank_accounts', reply.body), []);
  t.deepEqual((await api('GET', `/v1/bank_accounts/${reply.body.id}`)).body, reply.body);
  const form = await api('POST', '/v1/bank_accounts', { form: new URLSearchParams(ACCOUNT).toString() });
  t.is(form.status, 200, 'a form body is the same request');
});

const refusals: [string, Record<string, unknown>, string, string][] = [
  [
    'a routing number failing the ABA checksum',
    { routing_number: '123456789' },
    'invalid_bank_account',
    'routing_number is not a valid ABA routing number',
  ],
  [
    'a routing number of 8 digits',
    { routing_number: '32227162' },
    'invalid',
    'routing_number must be exactly 9 digits',
  ],
  [
    'an account number of 18 digits',
    { account_number: '1'.repeat(18) },
    'invalid',
    'account_number must be at most 17 characters',
  ],
  [
    'an unknown account type',
    { account_type: 'savings' },
    'invalid',
    'account_type must be one of [company, individual]',
  ],
  ['a signatory of 31 characters', { signatory: 'x'.repeat(31) }, 'invalid', 'signatory must be at most 30 characters'],
  [
    'the jpm template without its bank address',
    { check_template: 'jpm', city: 'SF' },
    'invalid',
    'fractional_routing_number is required when check_template is jpm',
  ],
  ['no signatory', { signatory: undefined }, 'invalid', 'signatory is required'],
];
for (const [name, change, code, message] of refusals) {
  test(`create refuses ${name}`, async (t, { api }) => {
    const reply = await api('POST', '/v1/bank_accounts', { json: { ...ACCOUNT, ...change } });
    t.is(reply.status, 422);
    t.like(reply.body.error, { code, message });
  });
}

test('test mode: any two amounts of 1 to 100 verify, once; other shapes are refused', async (t, { api }) => {
  const { id } = (await api('POST', '/v1/bank_accounts', { json: ACCOUNT })).body;
  for (const amounts of [[1], [1, 2, 3], [0, 5], [1, 101], ['a', 2]]) {
    const bad = await api('POST', `/v1/bank_accounts/${id}/verify`, { json: { amounts } });
    t.is(bad.status, 422, JSON.stringify(amounts));
  }
  const ok = await api('POST', `/v1/bank_accounts/${id}/verify`, { json: { amounts: [1, 100] } });
  t.is(ok.status, 200);
  t.true(ok.body.verified);
  t.deepEqual(vendorErrors('POST', `/v1/bank_accounts/${id}/verify`, ok.body), []);
  const again = await api('POST', `/v1/bank_accounts/${id}/verify`, { json: { amounts: [1, 100] } });
  t.is(again.status, 422);
  t.is(again.body.error.code, 'bank_account_already_verified');
  t.is((await api('POST', '/v1/bank_accounts/bank_missing/verify', { json: { amounts: [1, 2] } })).status, 404);
});

serial(
  'live mode: only the recorded micro-deposits verify (read with printpost deposits); events are recorded',
  async (t, { api, engine }) => {
    const live = { key: engine.keys.live };
    const created = await api('POST', '/v1/bank_accounts', { ...live, json: ACCOUNT });
    t.is(created.status, 200, JSON.stringify(created.body));
    const { id } = created.body;
    const read = spawnSync(BIN, ['deposits', id], {
      env: { ...process.env, DATABASE_URL: engine.databaseUrl },
      encoding: 'utf8',
    });
    t.is(read.status, 0, read.stderr);
    const [first, second] = read.stdout.trim().split(' ').map(Number);
    t.true(first >= 1 && first <= 100 && second >= 1 && second <= 100);
    const wrong = await api('POST', `/v1/bank_accounts/${id}/verify`, {
      ...live,
      json: { amounts: [first === 1 ? 2 : 1, second] },
    });
    t.is(wrong.status, 422);
    t.is(wrong.body.error.code, 'invalid_bank_account_verification');
    t.false((await api('GET', `/v1/bank_accounts/${id}`, live)).body.verified, 'a wrong guess changes nothing');
    const right = await api('POST', `/v1/bank_accounts/${id}/verify`, { ...live, json: { amounts: [second, first] } });
    t.true(right.body.verified, JSON.stringify(right.body));
    t.deepEqual((await api('DELETE', `/v1/bank_accounts/${id}`, live)).body, { id, deleted: true });
    t.is((await api('GET', `/v1/bank_accounts/${id}`, live)).status, 404);
    const db = knex(
      engine.db === 'sqlite'
        ? { client: 'better-sqlite3', connection: { filename: engine.databaseUrl }, useNullAsDefault: true }
        : { client: 'pg', connection: engine.databaseUrl },
    );
    try {
      const events = (await db('events')
        .where({ reference_id: id })
        .orderBy('date_created')
        .pluck('event_type')) as string[];
      t.deepEqual(events, ['bank_account.created', 'bank_account.verified', 'bank_account.deleted']);
    } finally {
      await db.destroy();
    }
    const testKeys = spawnSync(BIN, ['deposits', 'bank_none'], {
      env: { ...process.env, DATABASE_URL: engine.databaseUrl },
      encoding: 'utf8',
    });
    t.not(testKeys.status, 0);
  },
);

test('idempotent create: one account per key under concurrent repeats', async (t, { api }) => {
  const key = `bank-${Date.now()}`;
  const replies = await Promise.all(
    Array.from({ length: 10 }, () =>
      api('POST', '/v1/bank_accounts', { json: ACCOUNT, headers: { 'Idempotency-Key': key } }),
    ),
  );
  const ids = new Set(replies.filter((r) => r.status === 200).map((r) => r.body.id));
  t.is(ids.size, 1);
  t.true(replies.every((r) => r.status === 200 || r.status === 409));
});
