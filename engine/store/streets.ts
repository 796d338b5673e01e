// Street data (issue 46): loads of TIGER/Line address ranges and address points, and the lookups live
// US verification makes. A load's rows arrive in batched transactions under its own id while it is
// `loading`; `activateLoad` then swaps it in for the load of the same kind and source in one short
// transaction. Every read joins the active loads, so a reader sees the old load or the new, never half.
import type { Knex } from 'knex';
import { namedStatement } from './pg-named';
import type { Reader, Slot } from './reader';

export type StreetLoadKind = 'tiger_addrfeat' | 'openaddresses' | 'nad';

export interface SegmentRow {
  zip: string;
  street_key: string;
  l_from: number | null;
  l_to: number | null;
  l_parity: string | null;
  r_from: number | null;
  r_to: number | null;
  r_parity: string | null;
  coords: string;
  county_fips: string;
}

export interface PointRow {
  zip: string;
  street_key: string;
  number: string;
  unit: string;
  lon: number;
  lat: number;
}

export interface NameRow {
  zip: string;
  street_key: string;
}

/** A row of a street's ranges (`s`) or points (`p`), read together. */
interface StreetRow {
  row_kind: 's' | 'p';
  l_from: number | null;
  l_to: number | null;
  l_parity: string | null;
  r_from: number | null;
  r_to: number | null;
  r_parity: string | null;
  coords: string | null;
  county_fips: string | null;
  number: string | null;
  unit: string | null;
  lon: number | string | null;
  lat: number | string | null;
}

/** A street the data knows in a ZIP, and the kind of load that knows it. */
export interface KnownName extends NameRow {
  kind: StreetLoadKind;
}

export interface StreetLoad {
  id: string;
  kind: StreetLoadKind;
  source: string;
  file: string;
  rows: number;
  skipped: number;
  skipped_reasons: Record<string, number>;
  loaded_at: string;
  seconds: number;
}

interface LoadRow extends Omit<StreetLoad, 'skipped_reasons' | 'rows' | 'skipped' | 'seconds'> {
  skipped_reasons: string;
  rows: number | string;
  skipped: number | string;
  seconds: number | string;
}

/**
 * Rows a statement: Knex writes SQLite's multi-row insert as a compound SELECT, which SQLite caps at
 * 500 terms; PostgreSQL's VALUES list is capped by its 65,535 bound values (11 columns here).
 */
const chunkOf = (knex: Knex) => (knex.client.config.client === 'pg' ? 5000 : 500);

export async function beginLoad(
  knex: Knex,
  load: { id: string; kind: StreetLoadKind; source: string; file: string; startedAt: string },
): Promise<void> {
  await knex('street_loads').insert({
    id: load.id,
    kind: load.kind,
    source: load.source,
    file: load.file,
    state: 'loading',
    started_at: load.startedAt,
  });
}

/** One batch of a loading load's rows, in one transaction. */
export async function insertLoadBatch(
  knex: Knex,
  loadId: string,
  batch: { segments?: SegmentRow[]; points?: PointRow[]; names?: NameRow[]; zips?: string[] },
): Promise<void> {
  const tables: [string, object[]][] = [
    ['street_segments', batch.segments ?? []],
    ['street_points', batch.points ?? []],
    ['street_names', batch.names ?? []],
    ['street_zips', (batch.zips ?? []).map((zip) => ({ zip }))],
  ];
  const chunk = chunkOf(knex);
  await knex.transaction(async (trx) => {
    for (const [table, rows] of tables) {
      for (let i = 0; i < rows.length; i += chunk)
        await trx(table).insert(rows.slice(i, i + chunk).map((r) => ({ load_id: loadId, ...r })));
    }
  });
}

/**
 * Makes a finished load the active one of its kind and source, in one transaction: the load it
 * replaces (if any) becomes `replaced`, and its rows are deleted afterwards (no reader sees them).
 */
export async function activateLoad(
  knex: Knex,
  loadId: string,
  summary: { rows: number; skipped: number; skippedReasons: Record<string, number>; loadedAt: string; seconds: number },
): Promise<void> {
  await knex.transaction(async (trx) => {
    const load: { kind: string; source: string } | undefined = await trx('street_loads')
      .select('kind', 'source')
      .where('id', loadId)
      .first();
    if (!load) throw new Error(`street load ${loadId} vanished`);
    await trx('street_loads')
      .where({ kind: load.kind, source: load.source, state: 'active' })
      .update({ state: 'replaced' });
    await trx('street_loads')
      .where({ id: loadId })
      .update({
        state: 'active',
        rows: summary.rows,
        skipped: summary.skipped,
        skipped_reasons: JSON.stringify(summary.skippedReasons),
        loaded_at: summary.loadedAt,
        seconds: summary.seconds,
      });
  });
  await purgeLoads(knex, ['replaced']);
}

/** A load that failed: its rows go, and so does its record. */
export async function abandonLoad(knex: Knex, loadId: string): Promise<void> {
  await knex('street_loads').where({ id: loadId }).update({ state: 'failed' });
  await purgeLoads(knex, ['failed']);
}

/** Deletes the rows and records of loads in these states (none of them is read). */
async function purgeLoads(knex: Knex, states: string[]): Promise<void> {
  const loads: { id: string }[] = await knex('street_loads').select('id').whereIn('state', states);
  for (const { id } of loads) {
    await knex.transaction(async (trx) => {
      for (const table of ['street_segments', 'street_points', 'street_names', 'street_zips'])
        await trx(table).where({ load_id: id }).delete();
      await trx('street_loads').where({ id }).delete();
    });
  }
}

/** The active loads, newest first. */
export async function activeLoads(knex: Knex): Promise<StreetLoad[]> {
  const rows: LoadRow[] = await knex('street_loads')
    .select('id', 'kind', 'source', 'file', 'rows', 'skipped', 'skipped_reasons', 'loaded_at', 'seconds')
    .where('state', 'active')
    .orderBy([
      { column: 'loaded_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ]);
  return rows.map((r) => {
    const reasons: Record<string, number> = JSON.parse(r.skipped_reasons);
    return {
      ...r,
      rows: Number(r.rows),
      skipped: Number(r.skipped),
      seconds: Number(r.seconds),
      skipped_reasons: reasons,
    };
  });
}

/**
 * The lookups of live verification, prepared once: on SQLite's read connection (microseconds), and the
 * ones each verification runs as PostgreSQL named statements.
 */
export function streetLookups(knex: Knex, reader: Reader) {
  const active = (table: string) =>
    knex(table).join('street_loads', 'street_loads.id', `${table}.load_id`).where('street_loads.state', 'active');
  // PostgreSQL keeps the per-address lookups prepared (store/pg-named.ts): planning the street's
  // query anew cost three times running it
  const pg = knex.client.config.client === 'pg';
  const prepare = <T>(label: string, build: (slot: Slot) => Knex.QueryBuilder) =>
    pg ? namedStatement<T>(knex, label, build) : reader.prepare<T>(build);
  const names = prepare<KnownName>('street_names', (slot) =>
    active('street_names')
      .distinct('zip', 'street_key', 'street_loads.kind')
      .where({ zip: slot(0) }),
  );
  /** LIKE's wildcards (and its escape, `!`) in typed text taken literally */
  const literal = (text: string) => text.replace(/[!%_]/g, '!$&');
  // one query for a street's ranges and points (a round trip and a planning fewer on PostgreSQL)
  const SEGMENT_COLUMNS = ['l_from', 'l_to', 'l_parity', 'r_from', 'r_to', 'r_parity', 'coords', 'county_fips'];
  const POINT_COLUMNS = ['number', 'unit', 'lon', 'lat'];
  const nulls = (columns: string[]) => columns.map((c) => knex.raw(`null as ??`, [c]));
  const street = prepare<StreetRow>('street_of', (slot) =>
    active('street_segments')
      .select(knex.raw("'s' as row_kind"), ...SEGMENT_COLUMNS, ...nulls(POINT_COLUMNS))
      .where({ zip: slot(0), street_key: slot(1) })
      .unionAll(
        active('street_points')
          .select(knex.raw("'p' as row_kind"), ...nulls(SEGMENT_COLUMNS), ...POINT_COLUMNS)
          .where({ zip: slot(0), street_key: slot(1) }),
      ),
  );
  const zips = reader.prepare<{ zip: string }>(() => active('street_zips').distinct('zip'));
  const version = prepare<{ n: number | string; at: string | null }>('street_loads_version', () =>
    knex('street_loads').count({ n: '*' }).max({ at: 'loaded_at' }).where('state', 'active'),
  );
  return {
    /** changes whenever a load is swapped in (one row of the small loads table) */
    loadsVersion: async () => {
      const [row] = await version([]);
      return `${Number(row?.n ?? 0)}|${row?.at ?? ''}`;
    },
    /** every ZIP the active loads cover (a few thousand for a state): kept in memory by domain/streets */
    zipsWithData: async () => (await zips([])).map((r) => r.zip),
    /** a number that changes with every commit to the database, where that is cheap (SQLite) */
    changeStamp: () => reader.changeStamp(),
    /**
     * Streets of these ZIPs whose name, as words, starts as typed: after a predirectional or with it
     * ("BERRY S" finds BERRY ST, "N MA" N MAIN ST). For autocomplete: at most `limit`, read through the
     * (zip, street_key) index.
     */
    namesStartingWith: (zips: readonly string[], typed: string, limit: number) => {
      const p = literal(typed);
      const query = active('street_names')
        .distinct('zip', 'street_key', 'street_loads.kind')
        .whereIn('zip', [...zips])
        .where((q) => {
          for (const pattern of [`${p}%`, ` ${p}%`, `_ ${p}%`, `__ ${p}%`])
            q.orWhereRaw("replace(??, '|', ' ') like ? escape '!'", ['street_key', pattern]);
        })
        .orderBy('street_key')
        .limit(limit);
      return reader.all<KnownName>(query);
    },
    /** the ranges and points of one street in one ZIP, in one query */
    streetOf: async (zip: string, streetKey: string) => {
      const rows = await street([zip, streetKey]);
      const segments: SegmentRow[] = [];
      const points: PointRow[] = [];
      for (const r of rows) {
        if (r.row_kind === 's')
          segments.push({
            zip,
            street_key: streetKey,
            l_from: r.l_from,
            l_to: r.l_to,
            l_parity: r.l_parity,
            r_from: r.r_from,
            r_to: r.r_to,
            r_parity: r.r_parity,
            coords: r.coords ?? '',
            county_fips: r.county_fips ?? '',
          });
        else
          points.push({
            zip,
            street_key: streetKey,
            number: r.number ?? '',
            unit: r.unit ?? '',
            lon: Number(r.lon),
            lat: Number(r.lat),
          });
      }
      return { segments, points };
    },
    /** every street the data knows in the ZIP (empty: the ZIP has no data) */
    namesIn: (zip: string) => names([zip]),
  };
}

export type StreetLookups = ReturnType<typeof streetLookups>;
