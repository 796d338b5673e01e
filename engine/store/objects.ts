// The object store: every API object as its JSON body, scoped by account and mode.
import type { Knex } from 'knex';
import type { Mode } from '../catalog/types';
import { decodeCursor, encodeCursor } from './cursor';
import { InsertBatcher } from './insert-batcher';
import { nowIso } from '../util/time';
import { knexReader, type Reader, type Slot } from './reader';
import { completeClaim, type IdempotencyClaim } from './idempotency-claims';

export interface Scope {
  accountId: string;
  mode: Mode;
}

export type ApiObject = Record<string, unknown> & { id: string; date_created: string; date_modified: string };

export interface DateRange {
  gt?: string;
  gte?: string;
  lt?: string;
  lte?: string;
}

export interface ListParams {
  limit: number;
  after?: string;
  before?: string;
  dateCreated?: DateRange;
  metadata?: Record<string, string>;
  includeTotal?: boolean;
}

export interface ListPage {
  data: ApiObject[];
  /** cursor for the next (older) page, if there is one */
  next?: string;
  /** cursor for the previous (newer) page, if there is one */
  previous?: string;
  totalCount?: number;
}

interface Row {
  id: string;
  body: string;
}

const RANGE_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

export class ObjectStore {
  private readonly batcher: InsertBatcher;
  private readonly reader: Reader;
  /** retrieve by id is the hottest read: its SQL is built once */
  private readonly byId: (values: unknown[]) => Promise<Row[]>;
  private readonly byIdWithDeleted: (values: unknown[]) => Promise<Row[]>;

  constructor(
    private readonly knex: Knex,
    reader?: Reader,
  ) {
    this.reader = reader ?? knexReader(knex);
    this.batcher = new InsertBatcher(knex, knex.client.config.client === 'better-sqlite3');
    const byId = (s: Slot) => this.knex('objects').select('body').where({ account_id: s(0), mode: s(1), kind: s(2), id: s(3) });
    this.byId = this.reader.prepare<Row>((s) => byId(s).where('deleted', false).limit(1));
    this.byIdWithDeleted = this.reader.prepare<Row>((s) => byId(s).limit(1));
  }

  /**
   * Stores a new object; inside a caller's transaction when `trx` is given, else group-committed.
   * With the request's idempotency claim, the object is also its answer, recorded in the same commit.
   */
  async insert(scope: Scope, kind: string, object: ApiObject, options: { trx?: Knex; claim?: IdempotencyClaim } = {}): Promise<void> {
    const { trx, claim } = options;
    const row = {
      id: object.id,
      account_id: scope.accountId,
      mode: scope.mode,
      kind,
      date_created: object.date_created,
      date_modified: object.date_modified,
      deleted: false,
      body: JSON.stringify(object),
    };
    const metadata = Object.entries((object.metadata ?? {}) as Record<string, string>).map(([key, value]) => ({ object_id: object.id, account_id: scope.accountId, mode: scope.mode, kind, key, value }));
    if (!trx) {
      const completions = claim ? [{ claim, status: 200, body: row.body }] : [];
      return this.batcher.insert({ objects: [row], metadata, completions });
    }
    await trx('objects').insert(row);
    if (metadata.length) await trx('object_metadata').insert(metadata);
    if (claim) await completeClaim(trx, claim, { status: 200, body: object });
  }

  /** The object, or undefined when it does not exist in this scope (or was deleted, unless asked). */
  async get(scope: Scope, kind: string, id: string, options: { includeDeleted?: boolean } = {}): Promise<ApiObject | undefined> {
    const [row] = await (options.includeDeleted ? this.byIdWithDeleted : this.byId)([scope.accountId, scope.mode, kind, id]);
    return row ? (JSON.parse(row.body) as ApiObject) : undefined;
  }

  /** Replaces the stored body; returns false when the object is not in this scope. */
  async replace(scope: Scope, kind: string, object: ApiObject, trx: Knex = this.knex): Promise<boolean> {
    const changed = await trx('objects')
      .where({ account_id: scope.accountId, mode: scope.mode, kind, id: object.id })
      .update({ body: JSON.stringify(object), date_modified: object.date_modified, deleted: object.deleted === true });
    return changed > 0;
  }

  /** Marks the object deleted; returns false when it was not there (or already deleted). */
  async markDeleted(scope: Scope, kind: string, id: string, trx: Knex = this.knex): Promise<boolean> {
    const changed = await trx('objects')
      .where({ account_id: scope.accountId, mode: scope.mode, kind, id, deleted: false })
      .update({ deleted: true, date_modified: nowIso() });
    if (changed) await trx('object_metadata').where({ object_id: id }).delete();
    return changed > 0;
  }

  /** Newest first, keyset-paginated on (date_created, id) so deep pages cost what the first does. */
  async list(scope: Scope, kind: string, params: ListParams): Promise<ListPage> {
    const base = this.filtered(scope, kind, params);
    const query = base.clone().select('id', 'body').limit(params.limit + 1);
    const cursor = params.after ? decodeCursor(params.after) : params.before ? decodeCursor(params.before) : undefined;
    const backwards = Boolean(params.before);
    if (cursor) query.whereRaw(`(date_created, id) ${backwards ? '>' : '<'} (?, ?)`, [cursor.dateCreated, cursor.id]);
    const order = backwards ? 'asc' : 'desc';
    query.orderBy([{ column: 'date_created', order }, { column: 'id', order }]);

    const rows = await this.reader.all<Row>(query);
    const more = rows.length > params.limit;
    const pageRows = rows.slice(0, params.limit);
    if (backwards) pageRows.reverse();
    const data = pageRows.map((row) => JSON.parse(row.body) as ApiObject);

    const first = data[0];
    const last = data[data.length - 1];
    const hasNewer = backwards ? more : Boolean(params.after);
    const hasOlder = backwards ? true : more;
    const page: ListPage = {
      data,
      next: hasOlder && last ? encodeCursor(last.date_created, last.id) : undefined,
      previous: hasNewer && first ? encodeCursor(first.date_created, first.id) : undefined,
    };
    if (params.includeTotal) {
      const row = await this.reader.first<{ n: number | string }>(base.clone().count({ n: '*' }));
      page.totalCount = Number(row?.n ?? 0);
    }
    return page;
  }

  private scoped(scope: Scope, kind: string): Knex.QueryBuilder {
    return this.knex('objects').where({ account_id: scope.accountId, mode: scope.mode, kind });
  }

  private filtered(scope: Scope, kind: string, params: ListParams): Knex.QueryBuilder {
    const query = this.scoped(scope, kind).where('deleted', false);
    for (const [op, value] of Object.entries(params.dateCreated ?? {})) {
      if (value !== undefined) query.where('date_created', RANGE_OPS[op as keyof typeof RANGE_OPS], value);
    }
    for (const [key, value] of Object.entries(params.metadata ?? {})) {
      query.whereIn(
        'id',
        this.knex('object_metadata').select('object_id').where({ account_id: scope.accountId, mode: scope.mode, kind, key, value }),
      );
    }
    return query;
  }
}
