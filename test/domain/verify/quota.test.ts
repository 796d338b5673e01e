// The first 300 live US verifications each month are free without a payment method; then 403. The
// dashboard's verify form spends the same allowance.
// These tests need the engine's database, so they start engines of their own (SQLite and PostgreSQL).
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { loadConfig } from '../../../engine/platform/config';
import { startEngine, type RunningEngine } from '../../../engine/faces/server';
import { CLI_CHANGER } from '../../../engine/domain/accounts/accounts';
import { client } from '../../helpers/http';
import { DATABASES } from '../../helpers/matrix';
import { PG_ADMIN_URL } from '../../helpers/engine';
import { vendorResponseErrors } from '../../helpers/vendorSchema';
import { signInHttp } from '../../faces/dashboard/harness';
import { freeVerificationsUsed, setFreeVerificationsUsed, usagePeriod } from '../../../engine/domain/verify/quota';

interface Running {
  engine: RunningEngine;
  cleanup(): Promise<void>;
}

async function start(db: string): Promise<Running> {
  if (db === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-quota-'));
    const engine = await startEngine(
      loadConfig({ PORT: '0', DATABASE_URL: path.join(dir, 'e.sqlite'), LOG_LEVEL: 'silent' }),
    );
    return {
      engine,
      cleanup: async () => {
        await engine.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const name = `pp_quota_${Math.random().toString(36).slice(2, 10)}`;
  const admin = knex({ client: 'pg', connection: PG_ADMIN_URL });
  await admin.raw(`create database ${name}`);
  const engine = await startEngine(
    loadConfig({ PORT: '0', DATABASE_URL: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`), LOG_LEVEL: 'silent' }),
  );
  return {
    engine,
    cleanup: async () => {
      await engine.close();
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

const engines = new Map<string, Promise<Running>>();
test.after.always(async () => {
  for (const e of engines.values()) await (await e).cleanup();
});

const BODY = { primary_line: '1 Telegraph Hill Blvd', zip_code: '94133' };

for (const db of DATABASES) {
  const setup = async (settings: Record<string, boolean> = {}) => {
    if (!engines.has(db)) engines.set(db, start(db));
    const { engine } = await engines.get(db)!;
    const { accounts, store } = engine.services;
    const { account, keys } = await accounts.create(`quota-${Math.random().toString(36).slice(2)}`);
    for (const [name, value] of Object.entries(settings))
      await accounts.setSetting(account.id, name as never, value, CLI_CHANGER);
    return {
      api: client(engine.url, keys.live),
      url: engine.url,
      keys,
      accountId: account.id,
      counters: store.counters,
    };
  };

  test(`${db}: live verifications without a payment method are counted; test-mode ones are not`, async (t) => {
    const { api, keys, accountId, counters: k } = await setup();
    for (let i = 0; i < 3; i++) t.is((await api('POST', '/v1/us_verifications', { json: BODY })).status, 200);
    t.is(
      (await api('POST', '/v1/us_verifications', { json: BODY, key: keys.livePub })).status,
      200,
      'publishable live keys use the allowance too',
    );
    t.is((await api('POST', '/v1/us_verifications', { json: BODY, key: keys.test })).status, 200);
    t.is(await freeVerificationsUsed(k, accountId), 4);
  });

  test(`${db}: the 300th is free, the 301st is refused with 403`, async (t) => {
    const { api, accountId, counters: k } = await setup();
    await setFreeVerificationsUsed(k, accountId, 299);
    t.is((await api('POST', '/v1/us_verifications', { json: BODY })).status, 200);
    const refused = await api('POST', '/v1/us_verifications', { json: BODY });
    t.is(refused.status, 403);
    t.is(refused.body.error.code, 'payment_method_unverified');
    t.is(refused.body.error.status_code, 403);
    t.regex(refused.body.error.message, /300 free live US verifications this month/);
    t.deepEqual(vendorResponseErrors('POST', '/v1/us_verifications', 403, refused.body), []);
    t.is(await freeVerificationsUsed(k, accountId), 300, 'refused calls are not counted');
  });

  test(`${db}: a refused (invalid) request spends nothing`, async (t) => {
    const { api, accountId, counters: k } = await setup();
    const invalid = await api('POST', '/v1/us_verifications', { json: { zip_code: '94133' } });
    t.is(invalid.status, 422);
    t.is(await freeVerificationsUsed(k, accountId), 0);
    t.is((await api('POST', '/v1/us_verifications', { json: BODY })).status, 200);
    t.is(await freeVerificationsUsed(k, accountId), 1);
  });

  test(`${db}: concurrent calls cannot overshoot the allowance`, async (t) => {
    const { api, accountId, counters: k } = await setup();
    await setFreeVerificationsUsed(k, accountId, 295);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', '/v1/us_verifications', { json: BODY }).then((r) => r.status)),
    );
    t.is(statuses.filter((s) => s === 200).length, 5);
    t.is(statuses.filter((s) => s === 403).length, 15);
  });

  test(`${db}: last month's use does not count this month`, async (t) => {
    const { api, accountId, counters: k } = await setup();
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    await setFreeVerificationsUsed(k, accountId, 300, usagePeriod(lastMonth));
    t.is((await api('POST', '/v1/us_verifications', { json: BODY })).status, 200);
    t.is(await freeVerificationsUsed(k, accountId), 1);
  });

  test(`${db}: with a payment method there is no allowance to count or exhaust`, async (t) => {
    const { api, accountId, counters: k } = await setup({ payment_method_verified: true });
    await setFreeVerificationsUsed(k, accountId, 300);
    t.is((await api('POST', '/v1/us_verifications', { json: BODY })).status, 200);
    t.is(await freeVerificationsUsed(k, accountId), 300);
  });

  test(`${db}: the allowance is US verification only: other live calls need a payment method`, async (t) => {
    const { api } = await setup();
    for (const [p, json] of [
      ['/v1/bulk/us_verifications', { addresses: [BODY] }],
      ['/v1/us_zip_lookups', { zip_code: '94133' }],
    ] as const) {
      const r = await api('POST', p, { json });
      t.is(r.status, 401, p);
      t.is(r.body.error.code, 'payment_method_unverified');
    }
  });

  test(`${db}: the dashboard's live verify form spends the same allowance, and says when it is used up`, async (t) => {
    const { url, keys, accountId, counters: k } = await setup();
    const session = await signInHttp(url, keys.live);
    await setFreeVerificationsUsed(k, accountId, 299);
    const last = await session.post('/dashboard/addresses/verify', BODY, '/dashboard/addresses');
    t.is(last.status, 200);
    t.regex(last.text, /id="verdict"/);
    t.is(await freeVerificationsUsed(k, accountId), 300);
    const refused = await session.post('/dashboard/addresses/verify', BODY, '/dashboard/addresses');
    t.notRegex(refused.text, /id="verdict"/);
    t.regex(refused.text, /used its 300 free live US verifications this month/);
    t.is(await freeVerificationsUsed(k, accountId), 300);
  });
}
