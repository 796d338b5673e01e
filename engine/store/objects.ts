// The object store: every API object as its JSON body, scoped by account and mode. Creates may carry
// the request's idempotency answer and the object's event; changes go through a compare-and-set
// transition, so a change racing another (a cancel racing a worker) is never lost nor applied twice.
import type { Knex } from 'knex';
import { InsertBatcher, writeExtra, type ExtraWrite } from './insert-batcher';
import { nowIso } from '../util/time';
import { knexReader, type Reader, type Slot } from './reader';
import { completeClaim, type IdempotencyClaim } from './idempotency-claims';
import { objectRow, filterColumns, type ApiObject } from './columns';
import { eventRow, insertEvents } from './events';
import { listPage, type ListPage, type ListParams } from './object-list';
import type { Scope } from './scope';
import type { Resource } from '../catalog/types';

export type { Scope } from './scope';
export type { ApiObject } from './columns';
export type { DateRange, ListPage, ListParams, ColumnFilter } from './object-list';

interface Row {
  id: string;
  body: string;
}

export interface InsertOptions {
  /** the caller's transaction; else the insert is group-committed */
  trx?: Knex;
  /** the request's idempotency claim: the object is its answer, recorded in the same commit */
  claim?: IdempotencyClaim;
  /** the event recorded with it (`address.created`), in the same commit */
  event?: { type: string; resource: string };
  /** the object it lives under (a template, for a version) */
  parent?: string;
  /** other objects created with it (a mailpiece's inline addresses), with their own events */
  companions?: { kind: string; object: ApiObject; event?: { type: string; resource: string } }[];
  /** other writes that commit with it (a mailpiece's inputs, uploaded files and render job) */
  extra?: ExtraWrite[];
}

/** A change from the object as it is now; `refuse` says why it may not change (thrown as is). */
export interface Transition {
  refuse?(current: ApiObject): Error | undefined;
  change(current: ApiObject): ApiObject;
  event?: { type: string; resource: string };
  /** writes that must commit with this change (a version created under its template, ...) */
  alsoWrite?(trx: Knex, next: ApiObject): Promise<void>;
  /** the object's parent, when it lives under one */
  parent?: string;
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

  async insert(scope: Scope, kind: string, object: ApiObject, options: InsertOptions = {}): Promise<void> {
    const { trx, claim, event, parent, companions = [], extra = [] } = options;
    const row = objectRow(scope, kind, object, parent);
    const rows = [...companions.map((c) => objectRow(scope, c.kind, c.object)), row];
    const metadata = [...companions, { kind, object }].flatMap((o) =>
      Object.entries((o.object.metadata ?? {}) as Record<string, string>).map(([key, value]) => ({
        object_id: o.object.id,
        account_id: scope.accountId,
        mode: scope.mode,
        kind: o.kind,
        key,
        value,
      })),
    );
    const events = [
      ...companions.flatMap((c, i) =>
        c.event ? [eventRow(scope, c.event.type, c.event.resource, c.object, rows[i].body)] : [],
      ),
      ...(event ? [eventRow(scope, event.type, event.resource, object, row.body)] : []),
    ];
    if (!trx) {
      const completions = claim ? [{ claim, status: 200, body: row.body }] : [];
      return this.batcher.insert({ objects: rows, metadata, completions, events, extra });
    }
    await trx('objects').insert(rows);
    if (metadata.length) await trx('object_metadata').insert(metadata);
    await insertEvents(trx, events);
    await writeExtra(trx, extra);
    if (claim) await completeClaim(trx, claim, { status: 200, body: object });
  }

  /** The object, or undefined when it does not exist in this scope (or under this parent, or was deleted, unless asked). */
  async get(
    scope: Scope,
    kind: string,
    id: string,
    options: { includeDeleted?: boolean; parent?: string } = {},
  ): Promise<ApiObject | undefined> {
    const [row] = options.parent
      ? ((await this.knex('objects')
          .select('body')
          .where({ account_id: scope.accountId, mode: scope.mode, kind, id, parent_id: options.parent })
          .where((q) => (options.includeDeleted ? q : q.where('deleted', false)))
          .limit(1)) as Row[])
      : await (options.includeDeleted ? this.byIdWithDeleted : this.byId)([scope.accountId, scope.mode, kind, id]);
    return row ? (JSON.parse(row.body) as ApiObject) : undefined;
  }

  /**
   * Applies `transition` to the object as it is now and returns the new object, or undefined when
   * there is none in this scope. The read and the write share one transaction: on PostgreSQL the row
   * is locked for it, on SQLite the one write connection serializes it; the write is also
   * compare-and-set on date_modified. The event, if any, commits with the change.
   */
  async transition(scope: Scope, kind: string, id: string, transition: Transition): Promise<ApiObject | undefined> {
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
        const query = trx('objects').select('body').where(key).first();
        const row = (await (this.locks ? query.forUpdate() : query)) as Row | undefined;
        if (!row) return { next: undefined };
        const current = JSON.parse(row.body) as ApiObject;
        const refusal = transition.refuse?.(current);
        if (refusal) throw refusal;
        const next: ApiObject = {
          ...transition.change(current),
          id: current.id,
          date_modified: later(current.date_modified),
        };
        const changed = await trx('objects')
          .where({ ...key, date_modified: current.date_modified })
          .update({
            body: JSON.stringify(next),
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
        await transition.alsoWrite?.(trx, next);
        if (transition.event)
          await insertEvents(trx, [eventRow(scope, transition.event.type, transition.event.resource, next)]);
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
      event: resource.events.includes(type) ? { type, resource: resource.name } : undefined,
    });
    return deleted !== undefined;
  }

  /** The live objects of `kind` under each of `parents`, oldest first, in one query. */
  async children(scope: Scope, kind: string, parents: readonly string[]): Promise<Map<string, ApiObject[]>> {
    const byParent = new Map<string, ApiObject[]>(parents.map((p) => [p, []]));
    if (parents.length === 0) return byParent;
    const rows = (await this.reader.all<{ parent_id: string; body: string }>(
      this.knex('objects')
        .select('parent_id', 'body')
        .where({ account_id: scope.accountId, mode: scope.mode, kind, deleted: false })
        .whereIn('parent_id', parents)
        .orderBy([
          { column: 'date_created', order: 'asc' },
          { column: 'id', order: 'asc' },
        ]),
    )) as { parent_id: string; body: string }[];
    for (const row of rows) byParent.get(row.parent_id)?.push(JSON.parse(row.body) as ApiObject);
    return byParent;
  }

  async list(scope: Scope, kind: string, params: ListParams): Promise<ListPage> {
    return listPage(this.knex, this.reader, scope, kind, params);
  }
}

/** A modification stamp strictly after `previous`, even if another process's clock lags. */
function later(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}
