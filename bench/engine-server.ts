// The engine in its own process for load tests: fresh database, rate limit raised, keys on stdout.
import { loadConfig } from '../engine/config';
import { startEngine } from '../engine/server';

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'silent' });
  const engine = await startEngine(config);
  const { accounts } = engine.services;
  const account = (await accounts.first())!;
  await accounts.setSetting(account.id, 'rate_limit_per_5s', 100_000_000);
  process.stdout.write(`KEY ${engine.bootstrapKeys!.test}\n`);
  process.stdout.write(`READY ${engine.url}\n`);
}

process.on('SIGINT', () => process.exit(0));
void main();
