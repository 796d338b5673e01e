// Settings that govern live mail and money change only from a live-mode session or the CLI, and every
// change of any setting is recorded (who, before, after) and listed on the settings page; over plain
// HTTP and the real `printpost` command, on SQLite and PostgreSQL.
import { randomBytes } from 'node:crypto';
import { databaseSuite } from '../../helpers/suite';
import { run } from '../../helpers/cli';
import { connect } from '../../../engine/store/connection';
import { keyHint } from '../../../engine/domain/accounts/keys';
import {
  isSettingName,
  LIVE_MONEY_SETTINGS,
  SETTINGS,
  type SettingName,
} from '../../../engine/domain/accounts/settings';
import { signInHttp, type SessionClient } from './harness';

const suite = databaseSuite();

const LIVE_MONEY = LIVE_MONEY_SETTINGS.filter(isSettingName);

/** A value other than the default, as the form sends it. */
const changed = (name: SettingName): string => {
  const fallback = SETTINGS[name].default;
  return typeof fallback === 'boolean' ? String(!fallback) : String(Number(fallback) + 7);
};

const decode = (html: string) =>
  html
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#x3D;/g, '=')
    .replace(/&#x60;/g, '`')
    .replace(/&amp;/g, '&');

/** The rows of the page's "Recent changes" table, as text per cell, in the page's order. */
function changeRows(html: string): string[][] {
  const table = /<table id="setting-changes">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? '';
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? '';
  return [...body.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1].matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => decode(cell[1].replace(/<[^>]+>/g, '')).trim()),
  );
}

/** What the settings page shows as a setting's value: its form's field, or its read-only output. */
function shownValue(html: string, name: string): string | undefined {
  const output = new RegExp(`<output id="setting-${name}" class="read-only">([^<]*)</output>`).exec(html);
  if (output) return output[1];
  const input = new RegExp(`id="setting-${name}" name="value" value="([^"]*)"`).exec(html);
  if (input) return input[1];
  const select = new RegExp(`id="setting-${name}" name="value">([\\s\\S]*?)</select>`).exec(html);
  return select ? /<option value="(\w+)" selected>/.exec(select[1])?.[1] : undefined;
}

async function switchTo(session: SessionClient, mode: 'test' | 'live', key?: string) {
  const reply = await session.post('/dashboard/mode', { mode, ...(key ? { key } : {}) });
  if (reply.status !== 303) throw new Error(`mode not switched: ${reply.status}`);
}

suite.test(
  'a test-mode session cannot change a setting that governs live money: 403, the value unchanged, nothing recorded',
  async (t, { engine }) => {
    const keys = await engine.createAccount();
    const session = await signInHttp(engine.url, keys.test);
    t.deepEqual([...LIVE_MONEY].sort(), [
      'address_limit',
      'agent_max_check_amount',
      'agent_pieces_per_day',
      'agents_send_live',
      'email_verified',
      'live_campaigns_require_approval',
      'payment_method_verified',
    ]);
    const before = (await session.get('/dashboard/settings')).text;
    t.regex(
      before,
      /id="live-only-note">Settings marked <em>live only<\/em> govern live mail and money/,
      'one sentence says why',
    );
    for (const name of LIVE_MONEY) {
      t.is(shownValue(before, name), String(SETTINGS[name].default), name);
      t.notRegex(before, new RegExp(`name="name" value="${name}"`), `${name} has no form in test mode`);
      const refused = await session.post('/dashboard/settings', { name, value: changed(name) }, '/dashboard/settings');
      t.is(refused.status, 403, name);
      t.regex(refused.text, new RegExp(`${name} governs live mail and money`), name);
    }
    for (const env of ['USPS_MAILER_ID', 'USPS_PERMIT_NUMBER', 'USPS_STID_MARKETING']) {
      const refused = await session.post('/dashboard/settings', { name: env, value: '123456' }, '/dashboard/settings');
      t.is(refused.status, 403, `${env} is configuration, never a setting`);
    }
    const after = (await session.get('/dashboard/settings')).text;
    for (const name of LIVE_MONEY) t.is(shownValue(after, name), String(SETTINGS[name].default), name);
    t.deepEqual(changeRows(after), [], 'a refused change records nothing');
    t.regex(after, /No setting has been changed yet/);
    // the same session, its live key given, may; back in test mode it may not again
    await switchTo(session, 'live', keys.live);
    const live = (await session.get('/dashboard/settings')).text;
    t.notRegex(live, /id="live-only-note"/);
    t.is((await session.post('/dashboard/settings', { name: 'agents_send_live', value: 'true' })).status, 303);
    await switchTo(session, 'test');
    t.is((await session.post('/dashboard/settings', { name: 'agents_send_live', value: 'false' })).status, 403);
    const rows = changeRows((await session.get('/dashboard/settings')).text);
    t.deepEqual(
      rows.map(([, setting, before, after]) => [setting, before, after]),
      [['agents_send_live', 'false', 'true']],
      'only the live-mode change',
    );
    t.regex(rows[0][4], new RegExp(`^${keyHint(keys.live)} \\(live key key_[A-Za-z0-9]+\\)$`), 'by the live key');
  },
);

suite.test(
  'a live-mode session changes each live-money setting and the record shows its key, before and after, newest first',
  async (t, { engine }) => {
    const keys = await engine.createAccount();
    const session = await signInHttp(engine.url, keys.live);
    for (const name of LIVE_MONEY) {
      const saved = await session.post('/dashboard/settings', { name, value: changed(name) }, '/dashboard/settings');
      t.is(saved.status, 303, name);
    }
    const page = (await session.get('/dashboard/settings')).text;
    for (const name of LIVE_MONEY) t.is(shownValue(page, name), changed(name), name);
    const rows = changeRows(page);
    t.deepEqual(
      rows.map(([, setting, before, after]) => [setting, before, after]),
      [...LIVE_MONEY].reverse().map((name) => [name, String(SETTINGS[name].default), changed(name)]),
    );
    for (const row of rows) t.regex(row[4], new RegExp(`^${keyHint(keys.live)} \\(live key key_[A-Za-z0-9]+\\)$`));
    for (const row of rows) t.regex(row[0], /^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  },
);

suite.test(
  'a test-mode session still changes the other settings, and the change is recorded with its key',
  async (t, { engine }) => {
    const keys = await engine.createAccount();
    const session = await signInHttp(engine.url, keys.test);
    t.is((await session.post('/dashboard/settings', { name: 'rate_limit_per_5s', value: '99' })).status, 303);
    t.is((await session.post('/dashboard/settings', { name: 'rate_limit_per_5s', value: '98' })).status, 303);
    const rows = changeRows((await session.get('/dashboard/settings')).text);
    t.deepEqual(
      rows.map(([, setting, before, after]) => [setting, before, after]),
      [
        ['rate_limit_per_5s', '99', '98'],
        ['rate_limit_per_5s', '150', '99'],
      ],
    );
    t.regex(rows[0][4], new RegExp(`^${keyHint(keys.test)} \\(test key key_[A-Za-z0-9]+\\)$`));
  },
);

suite.test(
  "the CLI changes a live-money setting and the settings page shows the change as the CLI's",
  async (t, { engine }) => {
    const name = `cli-${randomBytes(4).toString('hex')}`;
    const keys = await engine.createAccount(name);
    const env = { DATABASE_URL: engine.databaseUrl };
    const set = await run(['settings', 'set', 'agent_max_check_amount', '900', '--account', name], env);
    t.is(set.code, 0, set.err);
    t.is(set.out, 'agent_max_check_amount=900\n');
    const session = await signInHttp(engine.url, keys.test);
    const page = (await session.get('/dashboard/settings')).text;
    t.is(shownValue(page, 'agent_max_check_amount'), '900');
    t.deepEqual(
      changeRows(page).map((row) => row.slice(1)),
      [['agent_max_check_amount', '500', '900', 'the CLI']],
    );
  },
);

suite.test('the settings page escapes what a recorded change holds', async (t, { engine }) => {
  const name = `esc-${randomBytes(4).toString('hex')}`;
  const keys = await engine.createAccount(name);
  // a row as a setting of another engine version could have left it: markup in every text cell
  const { knex } = connect(engine.databaseUrl);
  t.teardown(() => knex.destroy());
  const account = (await knex('accounts').where({ name }).first()) as { id: string };
  await knex('setting_changes').insert({
    account_id: account.id,
    setting: '<b>odd</b>',
    value_before: JSON.stringify('<img src=x>'),
    value_after: JSON.stringify('"><script>alert(1)</script>'),
    changed_via: 'key',
    key_id: 'key_<i>',
    key_hint: 'live_<u>',
    key_mode: 'live',
    date_created: new Date().toISOString(),
  });
  const session = await signInHttp(engine.url, keys.test);
  const page = (await session.get('/dashboard/settings')).text;
  for (const markup of ['<b>odd', '<img', '<script>alert', 'key_<i>', 'live_<u>'])
    t.false(page.includes(markup), markup);
  t.deepEqual(changeRows(page)[0]?.slice(1, 4), ['<b>odd</b>', '<img src=x>', '"><script>alert(1)</script>']);
});
