// The `printpost` command for operators and scripts: the table of commands, their help, and how a
// failure is told (a sentence and exit 1 or 2, a stack trace only for a defect). Each command lives in
// the file named for what it works on (serve, accounts, mail, webhooks, mcp).
import { configTable, ConfigError } from '../../platform/config';
import { CommandRefused } from '../../base/errors';
import { UsageError } from './common';
import { SERVE_HELP, serve, work } from './serve';
import { ACCOUNT_HELP, accounts, deposits, keys, migrate, settings } from './accounts';
import { MAIL_HELP, order, reject, simulate, track } from './mail';
import { WEBHOOK_HELP, webhooks } from './webhooks';
import { MCP_HELP, mcp } from './mcp';
import { STREETS_HELP, streets } from './streets';
import { codeOf, messageOf, stackOf } from '../../base/thrown';

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
  streets import | status    load public street data (TIGER/Line, OpenAddresses) for live US verification

Run 'printpost <command> --help' for a command's options.

Environment:
${configTable()}`,
  ...SERVE_HELP,
  ...ACCOUNT_HELP,
  ...MAIL_HELP,
  ...WEBHOOK_HELP,
  ...MCP_HELP,
  ...STREETS_HELP,
};

function explain(error: unknown): string {
  const code = codeOf(error);
  if (code === 'EADDRINUSE')
    return `port ${fieldOf(error, 'port')} on ${fieldOf(error, 'address')} is already in use: choose another with PORT or --port`;
  if (code === 'ECONNREFUSED') return `cannot reach the database (${messageOf(error)}): check DATABASE_URL`;
  return messageOf(error);
}

/** A field of a system error (`port`, `address`) as text, empty when it has none. */
const fieldOf = (error: unknown, name: string): string =>
  typeof error === 'object' && error !== null && name in error ? String(Reflect.get(error, name) ?? '') : '';

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
  streets,
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
    const code = codeOf(error) ?? '';
    const usage = error instanceof UsageError || error instanceof ConfigError || code.startsWith('ERR_PARSE_ARGS');
    // Operator mistakes (port taken, database unreachable) deserve a sentence, not a stack trace.
    const known = usage || error instanceof CommandRefused || /^E[A-Z]+$/.test(code) || /^(28|3D)/.test(code);
    process.stderr.write(`${known ? `printpost ${command}: ${explain(error)}` : stackOf(error)}\n`);
    return usage ? 2 : 1;
  }
}

if (require.main === module || process.argv[1]?.endsWith('printpost')) {
  void main(process.argv.slice(2)).then((code) => {
    if (code !== 0 || !['serve', 'work'].includes(process.argv[2])) process.exitCode = code;
  });
}
