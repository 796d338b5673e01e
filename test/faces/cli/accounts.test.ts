// `printpost accounts` and a key before the first start, as an operator's script runs them: real
// processes over a fresh SQLite file and a fresh PostgreSQL database.
import test from 'ava';
import { run, serve } from '../../helpers/cli';
import { freshDatabase } from '../../helpers/engine';
import { DATABASES } from '../../helpers/matrix';

const auth = (key: string) => ({ authorization: `Basic ${Buffer.from(`${key}:`).toString('base64')}` });
const LINE = /^(\S+)\tacct_[A-Za-z0-9]+\tcreated \d{4}-\d\d-\d\dT[\d:.]+Z\tkeys: (\d+) test, (\d+) live$/;

test('accounts is in the main help and has its own', async (t) => {
  t.regex((await run(['--help'], {})).out, /accounts create \| list/);
  const help = await run(['accounts', '--help'], {});
  t.is(help.code, 0);
  t.regex(help.out, /Usage: printpost accounts create NAME\n\s+printpost accounts list/);
  t.regex((await run(['keys', '--help'], {})).out, /database without accounts/);
});

for (const db of DATABASES) {
  test(`${db}: accounts create, list, a name taken, and keys for the new account`, async (t) => {
    const database = await freshDatabase(db);
    const env = { DATABASE_URL: database.url };
    try {
      t.is((await run(['migrate'], env)).code, 0);
      const empty = await run(['accounts', 'list'], env);
      t.like(empty, { code: 0, out: '', err: 'no accounts yet\n' });

      const created = await run(['accounts', 'create', 'acme'], env);
      t.is(created.code, 0, created.err);
      t.regex(created.out, /^acct_[A-Za-z0-9]+\tacme\n$/, 'the id and the name, nothing else');
      const taken = await run(['accounts', 'create', 'acme'], env);
      t.is(taken.code, 1);
      t.is(taken.err, 'printpost accounts: an account named acme already exists: choose another name\n');
      t.is(taken.out, '');

      t.is((await run(['accounts', 'create'], env)).code, 2, 'no name');
      t.is((await run(['accounts', 'create', ' '], env)).code, 2, 'a blank name');
      t.is((await run(['accounts', 'rename', 'acme'], env)).code, 2, 'no such verb');

      t.is((await run(['accounts', 'create', 'globex'], env)).code, 0);
      const key = await run(['keys', 'create', '--mode', 'live', '--account', 'globex'], env);
      t.regex(key.out, /^live_[0-9a-f]{32}\n$/);
      const missing = await run(['keys', 'create', '--mode', 'test', '--account', 'initech'], env);
      t.is(missing.code, 2);
      t.regex(missing.err, /no account named initech: create it with printpost accounts create initech/);

      const listed = await run(['accounts', 'list'], env);
      t.is(listed.code, 0);
      const lines = listed.out.trimEnd().split('\n');
      t.deepEqual(
        lines.map((l) => LINE.exec(l)?.slice(1)),
        [
          ['acme', '0', '0'],
          ['globex', '0', '1'],
        ],
        listed.out,
      );
      t.is(created.out.split('\t')[0], lines[0].split('\t')[1], 'list shows the id create printed');
    } finally {
      await database.drop();
    }
  });

  test(`${db}: migrate, keys create, then serve: one account, its key works, serve prints no keys`, async (t) => {
    const database = await freshDatabase(db);
    const env = { DATABASE_URL: database.url, ACCOUNT_NAME: 'ops' };
    try {
      t.is((await run(['migrate'], env)).code, 0);
      const key = await run(['keys', 'create', '--mode', 'test'], env);
      t.is(key.code, 0, key.err);
      t.regex(key.out, /^test_[0-9a-f]{32}\n$/, 'stdout holds only the key');
      t.regex(key.err, /created account "ops"/);
      const again = await run(['keys', 'create', '--mode', 'test', '--publishable'], env);
      t.regex(again.out, /^test_pub_[0-9a-f]{32}\n$/);
      t.is(again.err, '', 'the account exists now: none is created');

      const served = await serve(env);
      try {
        t.deepEqual(served.keys, {}, 'serve found an account: no bootstrap keys');
        t.false(served.lines.some((l) => l.includes('Created account')));
        const r = await fetch(`${served.url}/v1/addresses`, { headers: auth(key.out.trim()) });
        t.is(r.status, 200);
      } finally {
        served.child.kill('SIGTERM');
        await new Promise((resolve) => served.child.once('exit', resolve));
      }
      const listed = await run(['accounts', 'list'], env);
      t.deepEqual(
        listed.out
          .trimEnd()
          .split('\n')
          .map((l) => LINE.exec(l)?.slice(1)),
        [['ops', '2', '0']],
        'serve created no second account',
      );
    } finally {
      await database.drop();
    }
  });
}
