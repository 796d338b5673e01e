// What handlers reach: the database, the object store, accounts, configuration.
import type { Database } from './store/connection';
import type { ObjectStore } from './store/objects';
import type { Reader } from './store/reader';
import type { Accounts } from './accounts/accounts';
import type { EngineConfig } from './config';

export interface Services {
  db: Database;
  objects: ObjectStore;
  /** the read connection the object store uses, for reads of its own (autocomplete) */
  reader: Reader;
  accounts: Accounts;
  config: EngineConfig;
  /** releases the database connections */
  close(): Promise<void>;
}
