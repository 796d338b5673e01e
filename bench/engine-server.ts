// The engine in its own process for load tests: fresh database, rate limit raised, keys on stdout.
import v8 from 'node:v8';
import { loadConfig } from '../engine/platform/config';
import { startEngine } from '../engine/faces/server';
import { CLI_CHANGER } from '../engine/domain/accounts/accounts';

// as `printpost serve` sets it (bin/printpost), so its memory is what a served engine's is
if (!process.execArgv.some((a) => a.startsWith('--heap-growing-percent')))
  v8.setFlagsFromString('--heap-growing-percent=50');

async function main(): Promise<void> {
  // the API alone is measured here: pieces are not rendered (bench/render.ts measures rendering)
  const config = loadConfig({ WORKERS: '0', ...process.env, PORT: '0', LOG_LEVEL: 'silent' });
  const engine = await startEngine(config);
  const { accounts } = engine.services;
  const account = (await accounts.first())!;
  await accounts.setSetting(account.id, 'rate_limit_per_5s', 100_000_000, CLI_CHANGER);
  const key = engine.bootstrapKeys?.test ?? (await accounts.createKey(account.id, 'test', 'secret'));
  process.stdout.write(`KEY ${key}\n`);
  // a second tenant, for the fairness bench
  if (process.env.BENCH_SECOND_ACCOUNT) {
    const other = await accounts.create('bench-second');
    await accounts.setSetting(other.account.id, 'rate_limit_per_5s', 100_000_000, CLI_CHANGER);
    process.stdout.write(`KEY2 ${other.keys.test}\n`);
  }
  process.stdout.write(`READY ${engine.url}\n`);
}

process.on('SIGINT', () => process.exit(0));
void main();
