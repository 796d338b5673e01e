// The operator's account commands: accounts, keys, settings, migrate, and the micro-deposits that a
// live bank account's verification expects.
import { parseArgs } from 'node:util';
import { governsLiveMoney, isSettingName, parseSetting, SETTINGS } from '../../domain/accounts/settings';
import { CommandRefused } from '../../base/errors';
import { CLI_CHANGER } from '../../domain/accounts/accounts';
import { findAccount, firstAccount, UsageError, withServices } from './common';

export const ACCOUNT_HELP = {
  deposits:
    'Usage: printpost deposits BANK_ID\n\nPrints the two micro-deposit amounts (cents) made into a live bank account: what POST /v1/bank_accounts/BANK_ID/verify expects.',
  migrate: 'Usage: printpost migrate\n\nApplies pending migrations to DATABASE_URL and prints their names.',
  accounts: `Usage: printpost accounts create NAME
       printpost accounts list

create adds an account with default settings and no keys, and prints its id and name (tab-separated);
a name already taken is refused (exit 1). Give it keys with printpost keys create --account NAME.
list prints one line per account, oldest first: name, id, creation date, active test and live keys.`,
  keys: `Usage: printpost keys create --mode test|live [--publishable] [--agent] [--account NAME]

Creates one API key for the account (default: the first account) and prints only the key. On a
database without accounts it first creates the account serve would (ACCOUNT_NAME, default "default"),
so a script can run migrate, keys create, then serve (which then creates no account and prints no keys).
--agent marks the key as an AI agent's: the account's agent limits hold for it (agents_send_live, ...).`,
  settings: `Usage: printpost settings get [NAME] [--account NAME]
       printpost settings set NAME VALUE [--account NAME]

Every change is recorded as the CLI's (the dashboard's settings page lists them). Settings marked
[live] govern live mail and money: besides this command, only a live-mode dashboard session changes them.

Settings:
${Object.entries(SETTINGS)
  .map(([name, s]) => {
    const live = governsLiveMoney(name) ? '[live] ' : '';
    return `  ${name.padEnd(28)} ${live}${s.help} (default: ${JSON.stringify(s.default)})`;
  })
  .join('\n')}`,
};

export async function deposits(args: string[]): Promise<void> {
  const [id] = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  if (!id) throw new UsageError(ACCOUNT_HELP.deposits);
  const amounts = await withServices((services) => services.store.microdeposits.readMicrodeposits(id));
  if (!amounts) throw new UsageError(`no micro-deposits recorded for ${id} (test-mode accounts get none)`);
  process.stdout.write(`${amounts.join(' ')}\n`);
}

export async function migrate(): Promise<void> {
  await withServices(async () => undefined);
  process.stdout.write('migrations applied\n');
}

export async function keys(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      mode: { type: 'string' },
      publishable: { type: 'boolean' },
      agent: { type: 'boolean' },
      account: { type: 'string' },
    },
  });
  if (positionals[0] !== 'create') throw new UsageError(ACCOUNT_HELP.keys);
  if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode must be test or live');
  const mode = values.mode;
  const key = await withServices(async (services) => {
    const account = values.account ? await findAccount(services, values.account) : await firstAccount(services);
    const kind = values.publishable ? 'publishable' : 'secret';
    return services.accounts.createKey(account.id, mode, kind, { agent: values.agent });
  });
  process.stdout.write(`${key}\n`);
}

export async function accounts(args: string[]): Promise<void> {
  const [verb, name, ...extra] = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  if (verb === 'create') {
    if (name === undefined || extra.length > 0) throw new UsageError(ACCOUNT_HELP.accounts);
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200) throw new UsageError('NAME must be 1 to 200 characters');
    const account = await withServices((services) => services.accounts.add(trimmed));
    if (!account) throw new CommandRefused(`an account named ${trimmed} already exists: choose another name`);
    process.stdout.write(`${account.id}\t${account.name}\n`);
  } else if (verb === 'list' && name === undefined) {
    const all = await withServices((services) => services.accounts.list());
    const line = (a: (typeof all)[number]) =>
      `${a.name}\t${a.id}\tcreated ${a.dateCreated}\tkeys: ${a.keys.test} test, ${a.keys.live} live`;
    process.stdout.write(all.map((a) => `${line(a)}\n`).join(''));
    if (all.length === 0) process.stderr.write('no accounts yet\n');
  } else {
    throw new UsageError(ACCOUNT_HELP.accounts);
  }
}

export async function settings(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { account: { type: 'string' } } });
  const [verb, name, raw] = positionals;
  await withServices(async (services) => {
    const account = await findAccount(services, values.account);
    if (verb === 'get') {
      if (name !== undefined && !isSettingName(name)) throw new UsageError(`unknown setting ${name}`);
      const entries = Object.entries(account.settings).filter(([n]) => name === undefined || n === name);
      process.stdout.write(entries.map(([n, v]) => (name ? `${v}` : `${n}=${v}`)).join('\n') + '\n');
    } else if (verb === 'set') {
      if (name === undefined || raw === undefined) throw new UsageError(ACCOUNT_HELP.settings);
      if (!isSettingName(name)) throw new UsageError(`unknown setting ${name}`);
      const value = parseSetting(name, raw);
      if (value === undefined) throw new UsageError(`invalid value for ${name}: ${raw} (${SETTINGS[name].help})`);
      await services.accounts.setSetting(account.id, name, value, CLI_CHANGER);
      process.stdout.write(`${name}=${value}\n`);
    } else {
      throw new UsageError(ACCOUNT_HELP.settings);
    }
  });
}
