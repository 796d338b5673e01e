// What handlers reach: the database, the object store, accounts, configuration.
import type { Database } from './store/connection';
import type { ObjectStore } from './store/objects';
import type { Accounts } from './accounts/accounts';
import type { EngineConfig } from './config';

export interface Services {
  db: Database;
  objects: ObjectStore;
  accounts: Accounts;
  config: EngineConfig;
  /** releases the database connections */
  close(): Promise<void>;
}
