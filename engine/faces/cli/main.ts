// `printpost serve | migrate | accounts create|list | keys create | settings set|get | track | simulate
// | reject | order | mcp`,
// for operators and scripts.
import { parseArgs } from 'node:util';
import { loadConfig, describeConfig, configTable, ConfigError, type EngineConfig, uspsOf } from '../../platform/config';
import { missingSentence } from '../../catalog/usps-identity';
import { openServices, startEngine } from '../server';
import { startWorkers } from '../workers';
import { isSettingName, parseSetting, SETTINGS } from '../../domain/accounts/settings';
import type { Services } from '../../domain/services';
import { readMicrodeposits } from '../../store/microdeposits';
import type { Account } from '../../domain/accounts/accounts';
import { CommandRefused } from '../../base/errors';
import { MAIL_HELP, rejectById, simulateById, trackPiece } from './orders';
import { simulateArgs } from './orders';
import { WEBHOOK_HELP, webhookCommand, WebhookCommandError } from './webhooks';
import { setOrderStatus } from '../../domain/inserts/orders';
import { keepServingThroughDefects } from './defects';
import { MCP_HELP, mcp } from './mcp';

const HELP: Record<string, string> = {
  main: `Usage: printpost <command> [options]

Commands:
  serve                      start the engine (migrates; creates an account and prints its keys on an empty database)
  work                       work background jobs (rendering) only, beside engines started with serve --no-workers
  migrate                    apply pending database migrations
  accounts create | list     add an account, or list them with their active keys
  keys create                print one new API key (creates the default account on an empty database)
  settings get | set         read or change account settings
  track PIECE_ID NAME        record a carrier scan of a live piece in production as a tracking event
  simulate PIECE_ID          move a rendered test piece through production and simulated tracking events
  reject PIECE_ID            record that the print room rejected a live piece in production (--reason TEXT)
  order ORDER_ID STATUS      record a card or buckslip order's progress in the print room
  deposits BANK_ID           show the two micro-deposit amounts of a live bank account
  webhooks VERB              test, replay or list the disabled (printpost webhooks --help)
  mcp                        serve the AI agent tools (MCP) over stdio, for desktop clients

Run 'printpost <command> --help' for a command's options.

Environment:
${configTable()}`,
  serve: `Usage: printpost serve [--port N] [--host H] [--no-workers]

Starts the HTTP API and, unless --no-workers is given (or WORKERS=0), the background workers that render
mailpieces. Settings come from the environment (see printpost --help).`,
  work: `Usage: printpost work

Works background jobs (rendering) without serving HTTP: run it beside engines started with
serve --no-workers to split API and workers across processes. Stops on SIGINT or SIGTERM, leaving
unfinished jobs to be taken again.`,
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
  ...MAIL_HELP,
  ...WEBHOOK_HELP,
  ...MCP_HELP,
  settings: `Usage: printpost settings get [NAME] [--account NAME]
       printpost settings set NAME VALUE [--account NAME]

Settings:
${Object.entries(SETTINGS)
  .map(([name, s]) => `  ${name.padEnd(28)} ${s.help} (default: ${JSON.stringify(s.default)})`)
  .join('\n')}`,
};

/** A mistake in the command line itself: exit 2. */
class UsageError extends Error {}
/** A well-formed request the database refuses (a name taken): one sentence, exit 1. */
class Refused extends Error {}

async function findAccount(services: Services, name: string | undefined): Promise<Account> {
  const account = name ? await services.accounts.byName(name) : await services.accounts.first();
  if (!account)
    throw new UsageError(
      name
        ? `no account named ${name}: create it with printpost accounts create ${name}`
        : 'no account yet: create one with printpost accounts create NAME (or run printpost serve once)',
    );
  return account;
}

async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openServices(loadConfig());
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { port: { type: 'string' }, host: { type: 'string' }, 'no-workers': { type: 'boolean' } },
  });
  const config = loadConfig({
    ...process.env,
    ...(values.port ? { PORT: values.port } : {}),
    ...(values.host ? { HOST: values.host } : {}),
  });
  const engine = await startEngine(config, { workers: !values['no-workers'] });
  const out = [
    `printpost engine listening on ${engine.url}  (API base URL: ${engine.url}/v1)`,
    ...describeConfig(config, engine.services.db.label),
    workersLine(engine.services),
    productionLine(config),
  ];
  if (engine.bootstrapKeys) {
    const k = engine.bootstrapKeys;
    out.push(`Created account "${config.bootstrapAccount}". Its keys are shown only now:`);
    out.push(
      `  test secret:       ${k.test}`,
      `  test publishable:  ${k.testPub}`,
      `  live secret:       ${k.live}`,
      `  live publishable:  ${k.livePub}`,
    );
    out.push(`Try: curl ${engine.url}/v1/addresses -u ${k.test}:`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  keepServingThroughDefects(config.logLevel);
  const stop = () => void engine.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

/** What the banner says of this process's workers and renderer: never silent about a missing Chromium. */
function workersLine(services: Services): string {
  const workers = services.workers;
  if (!workers) return 'Workers: off in this process (renders wait for a printpost work or serve process)';
  const renderer = workers.renderer();
  if (!renderer) return 'Workers: events only in this process (WORKERS=0: renders wait for another process)';
  const at = `Workers: ${services.config.workers} at once`;
  if (!renderer.available)
    return `${at}; RENDERER UNAVAILABLE: ${renderer.reason} (pieces will fail until it is fixed)`;
  if (renderer.state === 'idle') return `${at}; renderer: ${renderer.reason} (${renderer.source ?? 'a'} Chromium)`;
  return `${at}; renderer: ${renderer.version ?? 'Chromium'} (${renderer.source})`;
}

/** What the banner says of live production: the USPS identity in use, or what is missing of it. */
function productionLine(config: EngineConfig): string {
  const usps = uspsOf(config);
  if (!usps.ready)
    return `Production: LIVE PIECES WAIT: ${missingSentence(usps.missing)} (test pieces render with sample marks)`;
  const { mailerId, crid, permit } = usps.identity;
  return `Production: USPS Mailer ID ${mailerId}, CRID ${crid}, permit ${permit.number} ${permit.city}, ${permit.state}`;
}

async function work(): Promise<void> {
  const config = loadConfig();
  const services = await openServices(config);
  services.workers = await startWorkers(services);
  process.stdout.write(
    `${['printpost worker started', ...describeConfig(config, services.db.label), workersLine(services), productionLine(config)].join('\n')}\n`,
  );
  keepServingThroughDefects(config.logLevel);
  const stop = () => void services.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

async function deposits(args: string[]): Promise<void> {
  const [id] = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  if (!id) throw new UsageError(HELP.deposits);
  const amounts = await withServices((services) => readMicrodeposits(services.db.knex, id));
  if (!amounts) throw new UsageError(`no micro-deposits recorded for ${id} (test-mode accounts get none)`);
  process.stdout.write(`${amounts.join(' ')}\n`);
}

async function migrate(): Promise<void> {
  await withServices(async () => undefined);
  process.stdout.write('migrations applied\n');
}

async function keys(args: string[]): Promise<void> {
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
  if (positionals[0] !== 'create') throw new UsageError(HELP.keys);
  if (values.mode !== 'test' && values.mode !== 'live') throw new UsageError('--mode must be test or live');
  const mode = values.mode;
  const key = await withServices(async (services) => {
    const account = values.account ? await findAccount(services, values.account) : await firstAccount(services);
    const kind = values.publishable ? 'publishable' : 'secret';
    return services.accounts.createKey(account.id, mode, kind, { agent: values.agent });
  });
  process.stdout.write(`${key}\n`);
}

/** The first account; on a database without one, the account serve would create (named by ACCOUNT_NAME). */
async function firstAccount(services: Services): Promise<Account> {
  const existing = await services.accounts.first();
  if (existing) return existing;
  const name = services.config.bootstrapAccount;
  const created = await services.accounts.add(name);
  // stderr: a script reads only the key from stdout.
  if (created) process.stderr.write(`printpost keys: created account "${name}" (the database had none)\n`);
  // Otherwise another process made it meanwhile (serve starting, a parallel keys create): use that one.
  const account = created ?? (await services.accounts.byName(name));
  if (!account) throw new Error(`could not create the account ${name}`);
  return account;
}

async function accounts(args: string[]): Promise<void> {
  const [verb, name, ...extra] = parseArgs({ args, allowPositionals: true, options: {} }).positionals;
  if (verb === 'create') {
    if (name === undefined || extra.length > 0) throw new UsageError(HELP.accounts);
    const trimmed = name.trim();
    if (trimmed === '' || trimmed.length > 200) throw new UsageError('NAME must be 1 to 200 characters');
    const account = await withServices((services) => services.accounts.add(trimmed));
    if (!account) throw new Refused(`an account named ${trimmed} already exists: choose another name`);
    process.stdout.write(`${account.id}\t${account.name}\n`);
  } else if (verb === 'list' && name === undefined) {
    const all = await withServices((services) => services.accounts.list());
    const line = (a: (typeof all)[number]) =>
      `${a.name}\t${a.id}\tcreated ${a.dateCreated}\tkeys: ${a.keys.test} test, ${a.keys.live} live`;
    process.stdout.write(all.map((a) => `${line(a)}\n`).join(''));
    if (all.length === 0) process.stderr.write('no accounts yet\n');
  } else {
    throw new UsageError(HELP.accounts);
  }
}

async function settings(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { account: { type: 'string' } } });
  const [verb, name, raw] = positionals;
  await withServices(async (services) => {
    const account = await findAccount(services, values.account);
    if (verb === 'get') {
      if (name !== undefined && !isSettingName(name)) throw new UsageError(`unknown setting ${name}`);
      const entries = Object.entries(account.settings).filter(([n]) => name === undefined || n === name);
      process.stdout.write(entries.map(([n, v]) => (name ? `${v}` : `${n}=${v}`)).join('\n') + '\n');
    } else if (verb === 'set') {
      if (name === undefined || raw === undefined) throw new UsageError(HELP.settings);
      if (!isSettingName(name)) throw new UsageError(`unknown setting ${name}`);
      const value = parseSetting(name, raw);
      if (value === undefined) throw new UsageError(`invalid value for ${name}: ${raw} (${SETTINGS[name].help})`);
      await services.accounts.setSetting(account.id, name, value);
      process.stdout.write(`${name}=${value}\n`);
    } else {
      throw new UsageError(HELP.settings);
    }
  });
}

function explain(error: Error & { code?: string; port?: number; address?: string }): string {
  if (error.code === 'EADDRINUSE')
    return `port ${error.port ?? ''} on ${error.address ?? ''} is already in use: choose another with PORT or --port`;
  if (error.code === 'ECONNREFUSED') return `cannot reach the database (${error.message}): check DATABASE_URL`;
  return error.message;
}

async function webhooks(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { webhook: { type: 'string' } } });
  const [verb, id, ...extra] = positionals;
  const known = verb === 'disabled' ? !id : (verb === 'test' || (verb === 'replay' && values.webhook)) && id;
  if (!known || extra.length > 0) throw new UsageError(HELP.webhooks);
  const out = await withServices((services) =>
    webhookCommand(services, verb, id, values.webhook).catch((error: unknown) => {
      throw error instanceof WebhookCommandError ? new Refused(error.message) : error;
    }),
  );
  process.stdout.write(out);
}

async function track(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      location: { type: 'string' },
      time: { type: 'string' },
      details: { type: 'string' },
      'return-envelope': { type: 'boolean' },
    },
  });
  const [pieceId, name, ...extra] = positionals;
  if (!pieceId || !name || extra.length > 0) throw new UsageError(HELP.track);
  let details: Record<string, unknown> | undefined;
  try {
    details = values.details === undefined ? undefined : (JSON.parse(values.details) as Record<string, unknown>);
  } catch {
    throw new UsageError('--details must be a JSON object');
  }
  const record = {
    piece_id: pieceId,
    name,
    location: values.location,
    time: values.time,
    details,
    return_envelope: values['return-envelope'],
  };
  const out = await withServices((services) => refusedAs(trackPiece(services.objects, record)));
  process.stdout.write(`${out}\n`);
}

async function simulate(args: string[]): Promise<void> {
  const asked = simulateArgs(args);
  if (!asked) throw new UsageError(HELP.simulate);
  const lines = await withServices((services) => refusedAs(simulateById(services.objects, asked.id, asked.request)));
  process.stdout.write(lines.map((l) => `${l}\n`).join(''));
}

async function reject(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { reason: { type: 'string' } } });
  const [pieceId, ...extra] = positionals;
  if (!pieceId || extra.length > 0 || !values.reason?.trim()) throw new UsageError(HELP.reject);
  const reason = values.reason;
  const out = await withServices((services) => refusedAs(rejectById(services.objects, pieceId, reason)));
  process.stdout.write(`${out}\n`);
}

async function order(args: string[]): Promise<void> {
  const options = { inventory: { type: 'string' }, reason: { type: 'string' } } as const;
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options });
  const [id, status, ...extra] = positionals;
  const inventory = values.inventory === undefined ? undefined : Number(values.inventory);
  if (!id || !status || extra.length > 0 || Number.isNaN(inventory)) throw new UsageError(HELP.order);
  const done = await withServices((s) => refusedAs(setOrderStatus(s.objects, id, status, { ...values, inventory })));
  process.stdout.write(`${done.id}\t${String(done.status)}\t${String(done.inventory)}\n`);
}

/** A mail command's refusal is the operator's to read, in one sentence (exit 1). */
const refusedAs = <T>(work: Promise<T>): Promise<T> =>
  work.catch((error: unknown) => {
    throw error instanceof CommandRefused ? new Refused(error.message) : error;
  });

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve,
  work,
  track,
  simulate,
  reject,
  order,
  migrate,
  accounts,
  keys,
  settings,
  deposits,
  webhooks,
  mcp,
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(`${HELP.main}\n`);
    return command ? 0 : 1;
  }
  // own keys only: `printpost constructor` named Object itself, ran it and exited 0
  const run = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (!run) {
    process.stderr.write(`unknown command: ${command}\n\n${HELP.main}\n`);
    return 1;
  }
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${HELP[command]}\n`);
    return 0;
  }
  try {
    await run(args);
    return 0;
  } catch (error) {
    const code = (error as { code?: string }).code ?? '';
    const usage = error instanceof UsageError || error instanceof ConfigError || code.startsWith('ERR_PARSE_ARGS');
    // Operator mistakes (port taken, database unreachable) deserve a sentence, not a stack trace.
    const known = usage || error instanceof Refused || /^E[A-Z]+$/.test(code) || /^(28|3D)/.test(code);
    process.stderr.write(
      `${known ? `printpost ${command}: ${explain(error as Error & { code?: string })}` : (error as Error).stack}\n`,
    );
    return usage ? 2 : 1;
  }
}

if (require.main === module || process.argv[1]?.endsWith('printpost')) {
  void main(process.argv.slice(2)).then((code) => {
    if (code !== 0 || !['serve', 'work'].includes(process.argv[2])) process.exitCode = code;
  });
}
