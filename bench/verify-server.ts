// The engine in its own process for the verification benchmark: a paying account (no free-quota
// counting), rate limit raised, its live and test keys on stdout.
import { loadConfig } from '../engine/platform/config';
import { startEngine } from '../engine/faces/server';
import { CLI_CHANGER } from '../engine/domain/accounts/accounts';

async function main(): Promise<void> {
  const engine = await startEngine(loadConfig({ WORKERS: '0', ...process.env, PORT: '0', LOG_LEVEL: 'silent' }));
  const { accounts } = engine.services;
  const { account, keys } = await accounts.create(`bench-verify-${Date.now()}`);
  await accounts.setSetting(account.id, 'rate_limit_per_5s', 100_000_000, CLI_CHANGER);
  await accounts.setSetting(account.id, 'payment_method_verified', true, CLI_CHANGER);
  process.stdout.write(`LIVE ${keys.live}\nTEST ${keys.test}\nREADY ${engine.url}\n`);
}

process.on('SIGINT', () => process.exit(0));
void main();
