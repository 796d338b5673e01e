// What every command shares: how it fails (a mistake in the command line exits 2, a refusal by the
// engine 1, each as one sentence) and how it opens the engine's services for one command.
import { loadConfig } from '../../platform/config';
import { openServices } from '../server';
import type { Services } from '../../domain/services';
import type { Account } from '../../domain/accounts/accounts';

/** A mistake in the command line itself: exit 2. */
export class UsageError extends Error {}

export async function withServices<T>(run: (services: Services) => Promise<T>): Promise<T> {
  const services = await openServices(loadConfig());
  try {
    return await run(services);
  } finally {
    await services.close();
  }
}

export async function findAccount(services: Services, name: string | undefined): Promise<Account> {
  const account = name ? await services.accounts.byName(name) : await services.accounts.first();
  if (!account)
    throw new UsageError(
      name
        ? `no account named ${name}: create it with printpost accounts create ${name}`
        : 'no account yet: create one with printpost accounts create NAME (or run printpost serve once)',
    );
  return account;
}

/** The first account; on a database without one, the account serve would create (named by ACCOUNT_NAME). */
export async function firstAccount(services: Services): Promise<Account> {
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
