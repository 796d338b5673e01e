// Storage-facing suites run once per database: SQLite always, PostgreSQL when the machine's server answers.
import { execFileSync } from 'node:child_process';
import type { Db } from './engine';

function postgresUp(): boolean {
  try {
    execFileSync('pg_isready', ['-h', '127.0.0.1', '-p', '5432', '-t', '3'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function pick(): Db[] {
  if (process.env.TEST_DATABASES) return process.env.TEST_DATABASES.split(',') as Db[];
  if (postgresUp()) return ['sqlite', 'postgres'];
  process.stderr.write(
    '\n!!! PostgreSQL is not reachable on 127.0.0.1:5432: SKIPPING the PostgreSQL leg of this suite !!!\n\n',
  );
  return ['sqlite'];
}

export const DATABASES: readonly Db[] = pick();
