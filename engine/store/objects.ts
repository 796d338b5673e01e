// The object store: every API object as its JSON body, scoped by account and mode. An insert and a
// transition each carry the rest of their commit (commit.ts: the idempotency answer, events, other
// objects, files, jobs, ...); changes go through a compare-and-set transition, so a change racing
// another (a cancel racing a worker) is never lost nor applied twice.
import type { Knex } from 'knex';
import { InsertBatcher } from './insert-batcher';
import { nowIso } from '../base/time';
import { knexReader, type Reader, type Slot } from './reader';
import { filterColumns, type ApiObject, type ObjectRow } from './columns';
import { changePlan, hasGuards, insertPlan, runGuards, writePlan, type CommitWrites } from './commit';
import { takeCheckNumber, type CheckNumber } from './check-numbers';
import { listPage, listPageText, type ListPage, type ListParams, type StoredBody } from './object-list';
import type { Scope } from './scope';
import type { Resource } from '../catalog/types';
import { parseStored, type StoredObject } from './stored';
import { cancelCampaignPieces, type CampaignPieceCancel } from './campaign-pieces';

export type { Scope } from './scope';
export type { ApiObject } from './columns';
export type { DateRange, ListPage, ListParams, ColumnFilter } from './object-list';
export { StoredBody } from './object-list';
export type { CommitWrites, EventType, ObjectRef } from './commit';
export type { CampaignPieceCancel } from './campaign-pieces';
export type { PieceKind, StoredObject, StoredObjects, StoredPiece } from './stored';

interface Row {
  id: string;
  body: string;
}

export interface InsertOptions extends CommitWrites {
  /** the object it lives under (a template, for a version) */
  parent?: string;
  /** a check's number, taken in the commit and set as the object's `check_number` */
  checkNumber?: CheckNumber;
}

/** A change from the object as it is now; `refuse` says why it may not change (thrown as is). */
export interface Transition<T extends ApiObject = ApiObject> extends CommitWrites {
  refuse?(current: T): Error | undefined;
  change(current: T): T;
  /** the object's parent, when it lives under one */
  parent?: string;
  /** events decided on the object as it is now (a webhook's `webhook.disabled`, only when it was enabled) */
  eventsWhen?(current: T): CommitWrites['events'];
  /** a campaign's delete: its pieces not in production are cancelled in the same transaction */
  cancelsPieces?: CampaignPieceCancel;
}

const CAS_ATTEMPTS = 5;

export class ObjectStore {
  private readonly batcher: InsertBatcher;
  private readonly reader: Reader;
  /** retrieve by id is the hottest read: its SQL is built once */
  private readonly byId: (values: unknown[]) => Promise<Row[]>;
  private readonly byIdWithDeleted: (values: unknown[]) => Promise<Row[]>;
  /** row locks exist (PostgreSQL); SQLite's single write connection serializes instead */
  private readonly locks: boolean;

  constructor(
    private readonly knex: Knex,
    reader?: Reader,
  ) {
    this.reader = reader ?? knexReader(knex);
    const sqlite = knex.client.config.client === 'better-sqlite3';
    this.batcher = new InsertBatcher(knex, sqlite);
    this.locks = !sqlite;
    const byId = (s: Slot) =>
      this.knex('objects')
        .select('body')
        .where({ account_id: s(0), mode: s(1), kind: s(2), id: s(3) });
    this.byId = this.reader.prepare<Row>((s) => byId(s).where('deleted', false).limit(1));
    this.byIdWithDeleted = this.reader.prepare<Row>((s) => byId(s).limit(1));
  }

  /**
   * Inserts `object` with the rest of its commit and returns it as stored. A commit that only writes is
   * group-committed with the inserts arriving with it; one that takes or checks something first (a
   * place under a limit, a check number) gets a transaction of its own.
   */
  async insert<T extends ApiObject>(scope: Scope, kind: string, object: T, options: InsertOptions = {}): Promise<T> {
    const { parent, checkNumber } = options;
    if (!checkNumber && !hasGuards(options)) {
      await this.batcher.insert(insertPlan(scope, kind, object, parent, options));
      return object;
    }
    return this.knex.transaction(async (trx) => {
      await runGuards(trx, scope, options);
      const stored = checkNumber ? { ...object, check_number: await takeCheckNumber(trx, scope, checkNumber) } : object;
      await writePlan(
        trx,
        scope,
        insertPlan(scope, kind, stored, parent, options),
        options.deletes,
        stored.date_modified,
      );
      return stored;
    });
  }

  /** The object, or undefined when it does not exist in this scope (or under this parent, or was deleted, unless asked). */
  async get<K extends string>(
    scope: Scope,
    kind: K,
    id: string,
    options: { includeDeleted?: boolean; parent?: string } = {},
  ): Promise<StoredObject<K> | undefined> {
    const [row] = options.parent
      ? await this.knex<ObjectRow>('objects')
          .select('body')
          .where({ account_id: scope.accountId, mode: scope.mode, kind, id, parent_id: options.parent })
          .where((q) => (options.includeDeleted ? q : q.where('deleted', false)))
          .limit(1)
      : await (options.includeDeleted ? this.byIdWithDeleted : this.byId)([scope.accountId, scope.mode, kind, id]);
    return row ? parseStored(kind, row.body) : undefined;
  }

  /**
   * Where an object lives, by id alone (ids are unique across accounts and modes): for what reaches the
   * engine without a key, such as a carrier's scan of a piece. Deleted objects are found too.
   */
  async locate(id: string): Promise<{ scope: Scope; kind: string } | undefined> {
    const row = await this.knex<{ id: string; account_id: string; mode: Scope['mode']; kind: string }>('objects')
      .select('account_id', 'mode', 'kind')
      .where({ id })
      .first();
    return row && { scope: { accountId: row.account_id, mode: row.mode }, kind: row.kind };
  }

  /**
   * Applies `transition` to the object as it is now and returns the new object, or undefined when
   * there is none in this scope. The read and the write share one transaction: on PostgreSQL the row
   * is locked for it, on SQLite the one write connection serializes it; the write is also
   * compare-and-set on date_modified. The rest of the commit (`CommitWrites`) commits with the change.
   */
  async transition<K extends string>(
    scope: Scope,
    kind: K,
    id: string,
    transition: Transition<StoredObject<K>>,
  ): Promise<StoredObject<K> | undefined> {
    const key = {
      account_id: scope.accountId,
      mode: scope.mode,
      kind,
      id,
      deleted: false,
      ...(transition.parent ? { parent_id: transition.parent } : {}),
    };
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const outcome = await this.knex.transaction(async (trx) => {
        const query = trx<Row>('objects').select('body').where(key).first();
        const row = await (this.locks ? query.forUpdate() : query);
        if (!row) return { next: undefined };
        const current = parseStored(kind, row.body);
        const refusal = transition.refuse?.(current);
        if (refusal) throw refusal;
        const next: StoredObject<K> = {
          ...transition.change(current),
          id: current.id,
          date_modified: later(current.date_modified),
        };
        const body = JSON.stringify(next);
        const changed = await trx('objects')
          .where({ ...key, date_modified: current.date_modified })
          .update({
            body,
            date_modified: next.date_modified,
            deleted: next.deleted === true,
            ...filterColumns(next),
          });
        if (changed !== 1) return undefined;
        if (next.deleted === true) {
          await trx('object_metadata').where({ object_id: id }).delete();
          // children go with their parent (a template's versions)
          await trx('objects')
            .where({ account_id: scope.accountId, mode: scope.mode, parent_id: id, deleted: false })
            .update({ deleted: true, date_modified: next.date_modified });
        }
        await runGuards(trx, scope, transition);
        const when = transition.eventsWhen?.(current);
        const writes = when?.length ? { ...transition, events: [...(transition.events ?? []), ...when] } : transition;
        await writePlan(trx, scope, changePlan(scope, next, body, writes), transition.deletes, next.date_modified);
        if (transition.cancelsPieces)
          await cancelCampaignPieces(trx, scope, transition.cancelsPieces, next.date_modified);
        return { next };
      });
      if (outcome) return outcome.next;
    }
    throw new Error(`${kind} ${id} kept changing under ${CAS_ATTEMPTS} attempts to update it`);
  }

  /**
   * Marks the object deleted, recording `<object>.deleted` when the resource declares it; false if absent.
   * `refuse` may forbid it on the object as it is now (a mailpiece past its cancellation window).
   */
  async delete(
    scope: Scope,
    resource: Resource,
    id: string,
    parent?: string,
    refuse?: Transition['refuse'],
  ): Promise<boolean> {
    const type = `${resource.object}.deleted`;
    const deleted = await this.transition(scope, resource.name, id, {
      parent,
      refuse,
      change: (current) => ({ ...current, deleted: true }),
      events: resource.events.includes(type) ? [{ type, resource: resource.name }] : undefined,
    });
    return deleted !== undefined;
  }

  /** The live objects of `kind` under each of `parents`, oldest first, in one query. */
  async children<K extends string>(
    scope: Scope,
    kind: K,
    parents: readonly string[],
  ): Promise<Map<string, StoredObject<K>[]>> {
    const byParent = new Map<string, StoredObject<K>[]>(parents.map((p) => [p, []]));
    if (parents.length === 0) return byParent;
    const rows = await this.reader.all<{ parent_id: string; body: string }>(
      this.knex('objects')
        .select('parent_id', 'body')
        .where({ account_id: scope.accountId, mode: scope.mode, kind, deleted: false })
        .whereIn('parent_id', parents)
        .orderBy([
          { column: 'date_created', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]),
    );
    for (const row of rows) byParent.get(row.parent_id)?.push(parseStored(kind, row.body));
    return byParent;
  }

  async list<K extends string>(scope: Scope, kind: K, params: ListParams): Promise<ListPage<StoredObject<K>>> {
    return listPage(this.knex, this.reader, scope, kind, params);
  }

  /** The same page with its objects as their stored JSON texts, for an answer that can splice them in. */
  async listText(scope: Scope, kind: string, params: ListParams): Promise<ListPage<StoredBody>> {
    return listPageText(this.knex, this.reader, scope, kind, params);
  }

  /** Changes with every commit to the database by anyone (Reader.changeStamp); undefined on PostgreSQL. */
  changeStamp(): number | undefined {
    return this.reader.changeStamp();
  }
}

/** A modification stamp strictly after `previous`, even if another process's clock lags. */
function later(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}
