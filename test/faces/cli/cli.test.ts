// The `printpost` command as an operator runs it: a real process over a real database file.
import test from 'ava';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { BIN, run, serve } from '../../helpers/cli';
import { VARIABLES } from '../../../engine/platform/config';
import { README, readmeWithConfig } from '../../../scripts/docs';
import { TO } from '../../helpers/mail';

function tempDb(): string {
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-cli-')), 'db.sqlite');
}

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });

test('--help on every command', async (t) => {
  const commands = ['serve', 'migrate', 'keys', 'settings'];
  const names = ['constructor', 'toString', '__proto__'];
  const [main, bogus, ...ran] = await Promise.all([
    run(['--help']),
    run(['bogus']),
    ...commands.map((command) => run([command, '--help'])),
    ...names.map((name) => run([name])),
  ]);
  t.is(main.code, 0);
  for (const command of commands) t.regex(main.out, new RegExp(command));
  commands.forEach((command, i) => {
    t.is(ran[i].code, 0, command);
    t.regex(ran[i].out, /Usage: printpost/);
  });
  t.regex(ran[commands.indexOf('settings')].out, /rate_limit_per_5s/);
  t.not(bogus.code, 0);
  names.forEach((name, i) => t.not(ran[commands.length + i].code, 0, name));
});

test('serve on an empty database prints the URL and four working keys once; keys and settings commands work beside it', async (t) => {
  const db = tempDb();
  const served = await serve({ DATABASE_URL: db, LOG_LEVEL: 'info', KEY_CACHE_MS: '50' });
  try {
    t.is(Object.keys(served.keys).length, 4);
    t.regex(served.keys['test secret'], /^test_[0-9a-f]{32}$/);
    t.regex(served.keys['live publishable'], /^live_pub_[0-9a-f]{32}$/);
    t.regex(served.lines.join('\n'), /DATABASE_URL=sqlite:/);
    const list = await fetch(`${served.url}/v1/addresses`, { headers: auth(served.keys['test secret']) });
    t.is(list.status, 200);

    const created = await run(['keys', 'create', '--mode', 'test'], { DATABASE_URL: db });
    t.is(created.code, 0);
    t.regex(created.out, /^test_[0-9a-f]{32}\n$/, 'prints the key and nothing else');
    t.is((await fetch(`${served.url}/v1/addresses`, { headers: auth(created.out.trim()) })).status, 200);
    const pub = await run(['keys', 'create', '--mode', 'live', '--publishable'], { DATABASE_URL: db });
    t.regex(pub.out, /^live_pub_[0-9a-f]{32}\n$/);
    t.is((await run(['keys', 'create', '--mode', 'prod'], { DATABASE_URL: db })).code, 2);
    t.is((await run(['keys', 'create', '--mode', 'test', '--account', 'nobody'], { DATABASE_URL: db })).code, 2);

    t.is((await run(['settings', 'set', 'rate_limit_per_5s', '500'], { DATABASE_URL: db })).code, 0);
    t.is((await run(['settings', 'get', 'rate_limit_per_5s'], { DATABASE_URL: db })).out.trim(), '500');
    t.regex((await run(['settings', 'get'], { DATABASE_URL: db })).out, /us_mail_strictness=relaxed/);
    t.is((await run(['settings', 'set', 'rate_limit_per_5s', 'fast'], { DATABASE_URL: db })).code, 2);
    t.is((await run(['settings', 'set', 'no_such_setting', '1'], { DATABASE_URL: db })).code, 2);
    await new Promise((resolve) => setTimeout(resolve, 100)); // past the engine's key cache (KEY_CACHE_MS)
    const r = await fetch(`${served.url}/v1/addresses`, { headers: auth(served.keys['test secret']) });
    t.is(r.headers.get('x-rate-limit-limit'), '500', 'the running engine picks up the new setting');

    const logged = served.lines.concat().filter((l) => l.startsWith('{'));
    t.true(logged.length >= 2, 'LOG_LEVEL=info writes one JSON line a request');
    const entry = JSON.parse(logged[0]) as { method: string; status: number; ms: number };
    t.is(entry.method, 'GET');
    t.is(entry.status, 200);
  } finally {
    served.child.kill('SIGTERM');
  }
});

test('serve runs with the young generation bin/printpost sets: after 2,000 creates /health reports it and the RSS', async (t) => {
  const served = await serve({ DATABASE_URL: tempDb() });
  t.teardown(() => served.child.kill());
  const headers = { ...auth(served.keys['test secret']), 'content-type': 'application/json' };
  // 20 at a time, as a busy engine takes them: V8's default young generation grows to 32 MB under this
  for (let round = 0; round < 100; round++)
    await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(`${served.url}/v1/addresses`, { method: 'POST', headers, body: JSON.stringify(TO) }).then((r) =>
          r.text(),
        ),
      ),
    );
  const { memory } = (await (await fetch(`${served.url}/health`)).json()) as {
    memory: { rss_mb: number; limit_mb: number | null; heap_used_mb: number; young_generation_mb: number };
  };
  t.true(
    memory.young_generation_mb > 0 && memory.young_generation_mb <= 16,
    `young generation ${memory.young_generation_mb} MB`,
  );
  t.true(memory.rss_mb > memory.heap_used_mb, 'the RSS holds the heap');
  t.is(memory.limit_mb, 1536, 'MAX_RSS_MB as configured (its default)');
});

test('a second start on the same database creates no new account and prints no keys', async (t) => {
  const db = tempDb();
  const first = await serve({ DATABASE_URL: db });
  first.child.kill('SIGTERM');
  await new Promise((resolve) => first.child.once('exit', resolve));
  const child = spawn(BIN, ['serve'], { env: { ...process.env, PORT: '0', DATABASE_URL: db } });
  const out = await new Promise<string>((resolve) => {
    let text = '';
    child.stdout.on('data', (c: Buffer) => {
      text += c.toString();
      if (/LOG_LEVEL/.test(text)) resolve(text);
    });
  });
  child.kill('SIGTERM');
  t.regex(out, /listening on/);
  t.notRegex(out, /test secret/);
});

test('migrate applies migrations and is idempotent', async (t) => {
  const db = tempDb();
  t.is((await run(['migrate'], { DATABASE_URL: db })).code, 0);
  t.is((await run(['migrate'], { DATABASE_URL: db })).code, 0);
  t.true(fs.existsSync(db));
});

test('operator mistakes get one sentence and a non-zero exit, not a stack trace', async (t) => {
  const unreachable = await run(['migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
  t.is(unreachable.code, 1);
  t.regex(unreachable.err, /^printpost migrate: cannot reach the database .*check DATABASE_URL\n$/);
  const viaUrl = await run(['migrate'], { DATABASE_URL: `sqlite:${tempDb()}` });
  t.is(viaUrl.code, 0, 'a sqlite: URL names a file');
});

test('a bad configuration value is one sentence naming the variable', async (t) => {
  const bad = await run(['migrate'], { DATABASE_URL: `sqlite:${tempDb()}`, REQUEST_TIMEOUT_MS: 'soon' });
  t.is(bad.code, 2);
  t.regex(bad.err, /^printpost migrate: REQUEST_TIMEOUT_MS must be a whole number, got "soon"\n$/);
});

test('a registered mail range set in part, backwards or malformed stops the start with one sentence', async (t) => {
  const db = { DATABASE_URL: `sqlite:${tempDb()}` };
  const range = {
    USPS_S10_SERVICE_INDICATOR: 'RA',
    USPS_S10_FIRST_SERIAL: '00000010',
    USPS_S10_LAST_SERIAL: '00000020',
  };
  const partial = await run(['migrate'], { ...db, ...range, USPS_S10_LAST_SERIAL: '' });
  t.is(partial.code, 2);
  t.regex(
    partial.err,
    /registered mail needs all of USPS_S10_SERVICE_INDICATOR, USPS_S10_FIRST_SERIAL, USPS_S10_LAST_SERIAL/,
  );
  const backwards = await run(['migrate'], { ...db, ...range, USPS_S10_FIRST_SERIAL: '00000030' });
  t.is(backwards.code, 2);
  t.regex(backwards.err, /USPS_S10_FIRST_SERIAL 00000030 is past USPS_S10_LAST_SERIAL 00000020/);
  const notRegistered = await run(['migrate'], { ...db, ...range, USPS_S10_SERVICE_INDICATOR: 'EA' });
  t.is(notRegistered.code, 2);
  t.regex(notRegistered.err, /USPS_S10_SERVICE_INDICATOR must be the S10 service indicator of registered mail/);
  t.is((await run(['migrate'], { ...db, ...range })).code, 0, 'a whole range starts');
});

test('every configuration variable is in --help, the start banner and the README table (built from one declaration)', async (t) => {
  const help = (await run(['--help'])).out;
  const readme = fs.readFileSync(README, 'utf8');
  t.is(readme, readmeWithConfig(readme), 'README.md is current: run npm run docs');
  const served = await serve({ DATABASE_URL: tempDb() });
  try {
    for (const variable of Object.values(VARIABLES)) {
      t.true(help.includes(`\`${variable.env}\``), `--help: ${variable.env}`);
      t.true(
        served.lines.some((l) => l.trim().startsWith(`${variable.env}=`)),
        `banner: ${variable.env}`,
      );
    }
    t.true(
      served.lines.some((l) => /^Production: LIVE PIECES WAIT: .*set USPS_MAILER_ID, USPS_CRID/.test(l)),
      'the banner says what live production is missing',
    );
    t.true(
      served.lines.some((l) => /REGISTERED MAIL OFF: registered mail is off: set USPS_S10_SERVICE_INDICATOR/.test(l)),
      'the banner says registered mail is off without a range',
    );
  } finally {
    served.child.kill('SIGTERM');
  }
});
