// The one door into the data. The store is opened from a database URL (`openStore`) and hands out a
// `Store`: the object store and, table by table, the named functions the rest of the engine needs,
// each already bound to the store's connection. No Knex handle, transaction or SQL leaves
// engine/store (test/store/store-door.test.ts holds the engine to it).
import type { Knex } from 'knex';
import { connect, DEFAULT_DATABASE, reachable, type Database, type Dialect } from './connection';
import { migrateLatest } from './migrate';
import { knexReader, sqliteReader, type Reader } from './reader';
import { startCheckpointer } from './checkpointer';
import { ObjectStore } from './objects';
import * as accounts from './accounts';
import { readBlob } from './blobs';
import { searchBodies } from './body-search';
import { earlierMailings, mailedInRun, returnAddressesAmong } from './campaign-mailings';
import { scheduledCampaigns } from './campaign-schedules';
import { adjustCounter, incrementBelow, readCounter, setCounter } from './counters';
import { keepFirstSecret } from './engine-secrets';
import { useConfirmationOnce } from './agent-confirmations';
import { getEvent, listEvents } from './event-list';
import { claimNewKey, completeClaim, dropKeysBefore, findKey, releaseClaim, takeOverKey } from './idempotency-keys';
import { allocateSerial } from './imb-serials';
import { drawSerial } from './tracking-serials';
import { readMicrodeposits } from './microdeposits';
import { readPieceInputs } from './piece-inputs';
import { heldPieces, holdPiece, releaseHold } from './production-holds';
import { DatabaseHitCounter } from './rate-windows';
import { isRecorded, recordedRecipients, recordSkipped, rowOutcomes, tallyRun } from './run-recipients';
import { listAttempts } from './webhook-attempts';
import * as deliveries from './webhook-deliveries';
import * as failures from './webhook-failures';
import * as jobTable from './job-queue';
import { pgBossTables } from './pg-boss-db';
import * as dashboard from './dashboard';
import { recentSettingChanges, type SettingChanger } from './setting-changes';
import * as streets from './streets';

export { DEFAULT_DATABASE, type Dialect };

/** `f` with the connection given: what the store hands out. */
function on<A extends unknown[], R>(knex: Knex, f: (knex: Knex, ...args: A) => R): (...args: A) => R {
  return (...args) => f(knex, ...args);
}

/** Every table's functions, bound to one connection (and the reads of body search to `reader`). */
function tablesOn(knex: Knex, reader: Reader) {
  const bind = <A extends unknown[], R>(f: (knex: Knex, ...args: A) => R) => on(knex, f);
  return {
    /** accounts, their keys and settings (domain/accounts) */
    accounts: {
      insertAccount: bind(accounts.insertAccount),
      insertApiKey: bind(accounts.insertApiKey),
      countAccounts: bind(accounts.countAccounts),
      accountNamed: bind(accounts.accountNamed),
      accountWithId: bind(accounts.accountWithId),
      oldestAccount: bind(accounts.oldestAccount),
      accountsWithKeyCounts: bind(accounts.accountsWithKeyCounts),
      storeSetting: <V>(
        accountId: string,
        name: string,
        value: V,
        change: { fallback: V; by: SettingChanger; at: string },
      ) => accounts.storeSetting<V>(knex, accountId, name, value, change),
      keyWithAccount: bind(accounts.keyWithAccount),
      keyOfMode: bind(accounts.keyOfMode),
      recentSettingChanges: bind(recentSettingChanges),
    },
    /** counts kept under limits (live addresses, free verifications) */
    counters: {
      incrementBelow: bind(incrementBelow),
      adjustCounter: bind(adjustCounter),
      setCounter: bind(setCounter),
      readCounter: bind(readCounter),
    },
    /** the requests' idempotency keys: claims, leases, answers */
    idempotencyKeys: {
      findKey: bind(findKey),
      claimNewKey: bind(claimNewKey),
      takeOverKey: bind(takeOverKey),
      releaseClaim: bind(releaseClaim),
      completeClaim: bind(completeClaim),
      dropKeysBefore: bind(dropKeysBefore),
    },
    /** the events outbox as the API reads it, and webhooks' attempts */
    events: { getEvent: bind(getEvent), listEvents: bind(listEvents), listAttempts: bind(listAttempts) },
    /** deliveries of events to webhooks: fan-out, order, attempts */
    webhookDeliveries: {
      dispatchEvents: bind(deliveries.dispatchEvents),
      webhooksDue: bind(deliveries.webhooksDue),
      pendingInOrder: bind(deliveries.pendingInOrder),
      webhookTarget: bind(deliveries.webhookTarget),
      recordAttempts: bind(deliveries.recordAttempts),
      queueDelivery: bind(deliveries.queueDelivery),
    },
    /** webhooks whose deliveries fail: since when, replays, the disabled ones */
    webhookFailures: {
      failingSince: bind(failures.failingSince),
      setAsidePending: bind(failures.setAsidePending),
      deliveryStateOf: bind(failures.deliveryStateOf),
      replayFailed: bind(failures.replayFailed),
      failedCounts: bind(failures.failedCounts),
      disabledWebhooks: bind(failures.disabledWebhooks),
    },
    /** who a campaign has mailed, and the addresses kept as senders' */
    campaignMailings: {
      earlierMailings: bind(earlierMailings),
      mailedInRun: bind(mailedInRun),
      returnAddressesAmong: bind(returnAddressesAmong),
    },
    /** a campaign run's recipients: made, skipped, tallied */
    runRecipients: {
      recordedRecipients: bind(recordedRecipients),
      isRecorded: bind(isRecorded),
      rowOutcomes: bind(rowOutcomes),
      recordSkipped: bind(recordSkipped),
      tallyRun: bind(tallyRun),
    },
    campaignSchedules: { scheduledCampaigns: bind(scheduledCampaigns) },
    /** what create recorded for a render: a piece's inputs, its files, a bank account's deposits */
    pieceInputs: { readPieceInputs: bind(readPieceInputs) },
    blobs: { readBlob: bind(readBlob) },
    microdeposits: { readMicrodeposits: bind(readMicrodeposits) },
    /** IMb serials and the live pieces waiting for the USPS identity */
    imbSerials: { allocateSerial: bind(allocateSerial) },
    /** serials of letters' tracking numbers (certified IMpb, registered S10) */
    trackingSerials: { drawSerial: bind(drawSerial) },
    productionHolds: { holdPiece: bind(holdPiece), heldPieces: bind(heldPieces), releaseHold: bind(releaseHold) },
    engineSecrets: { keepFirstSecret: bind(keepFirstSecret) },
    /** AI agents' confirmation tokens, each used once (domain/agents/confirmations.ts) */
    agentConfirmations: { useConfirmationOnce: bind(useConfirmationOnce) },
    /** objects whose JSON body may match (address autocomplete), read on the read connection */
    bodySearch: {
      searchBodies: (...args: Parameters<typeof searchBodies> extends [Knex, Reader, ...infer A] ? A : never) =>
        searchBodies(knex, reader, ...args),
    },
    /** the SQLite job queue's table (platform/jobs/sqlite.ts) */
    jobTable: {
      exists: bind(jobTable.jobTableExists),
      insert: bind(jobTable.insertJob),
      claim: bind(jobTable.claimJobs),
      complete: bind(jobTable.completeJob),
      fail: bind(jobTable.failJob),
      release: bind(jobTable.releaseJob),
      dropCompleted: bind(jobTable.dropCompletedJobs),
      countByState: bind(jobTable.countJobsByState),
      waiting: bind(jobTable.waitingJobs),
    },
    /** pg-boss's tables on the engine's pool (platform/jobs/postgres.ts) */
    pgBoss: pgBossTables(knex),
    /** the dashboard's sessions, keys as operators see them, pieces of every kind (faces/dashboard) */
    dashboard: {
      insertSession: bind(dashboard.insertSession),
      liveSession: bind(dashboard.liveSession),
      setSessionModes: bind(dashboard.setSessionModes),
      endSession: bind(dashboard.endSession),
      dropSessionsBefore: bind(dashboard.dropSessionsBefore),
      keysOf: bind(dashboard.keysOf),
      revokeKey: bind(dashboard.revokeKey),
      listPieces: bind(dashboard.listPieces),
      pieceCounts: bind(dashboard.pieceCounts),
      nextToProduction: bind(dashboard.nextToProduction),
      attemptsForEvents: bind(dashboard.attemptsForEvents),
      windowCount: bind(dashboard.windowCount),
    },
    /** street data: loads swapped in whole, and the lookups of live US verification (store/streets.ts) */
    streets: {
      beginLoad: bind(streets.beginLoad),
      insertLoadBatch: bind(streets.insertLoadBatch),
      activateLoad: bind(streets.activateLoad),
      abandonLoad: bind(streets.abandonLoad),
      activeLoads: bind(streets.activeLoads),
      ...streets.streetLookups(knex, reader),
    },
    /** rate-limit windows shared by every process on the database */
    sharedHitCounter: () => new DatabaseHitCounter(knex),
  };
}

export type StoreTables = ReturnType<typeof tablesOn>;

export interface Store extends StoreTables {
  dialect: Dialect;
  /** what was connected, without credentials, for the start banner */
  label: string;
  /** what was connected, as given (with credentials): for components that open their own connections */
  url: string;
  objects: ObjectStore;
  /** whether the database answers a trivial query (for `GET /health`) */
  reachable(): Promise<boolean>;
  /** releases the read connection, the checkpointer and the connections */
  close(): Promise<void>;
}

/**
 * The store over a connection already made and migrated, reading through it (no read connection, no
 * checkpointer): for tests that keep the connection to inspect the database. `stop` runs on close.
 */
export function storeOn(db: Database, parts: { reader?: Reader; stop?: () => Promise<void> } = {}): Store {
  const reader = parts.reader ?? knexReader(db.knex);
  return {
    ...tablesOn(db.knex, reader),
    dialect: db.dialect,
    label: db.label,
    url: db.url,
    objects: new ObjectStore(db.knex, reader),
    reachable: () => reachable(db.knex),
    close: async () => {
      await parts.stop?.();
      await db.knex.destroy();
    },
  };
}

/** Migrates the database and opens the store on it: on a SQLite file, with its read connection and checkpointer. */
export async function openStoreOn(db: Database): Promise<Store> {
  await migrateLatest(db.knex);
  const file = db.file !== ':memory:' ? db.file : undefined;
  const reader = file ? sqliteReader(file) : knexReader(db.knex);
  const checkpointer = file ? await startCheckpointer(db.knex, file) : undefined;
  return storeOn(db, {
    reader,
    stop: async () => {
      reader.close();
      await checkpointer?.stop();
    },
  });
}

/** The engine's store: a SQLite file (the default) or a postgres:// URL, migrated. */
export function openStore(url: string = DEFAULT_DATABASE, poolMax?: number): Promise<Store> {
  return openStoreOn(connect(url, poolMax));
}
