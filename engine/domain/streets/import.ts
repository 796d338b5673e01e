// `printpost streets import`: a file's rows go into the store in batched transactions under a new
// load, which then replaces the load of the same county or source in one short transaction (a reader
// sees the old data or the new, never half). A refused or failed file leaves the data as it was.
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { CommandRefused } from '../../base/errors';
import type { Store } from '../../store/store';
import type { NameRow, PointRow, SegmentRow } from '../../store/streets';
import type { StreetSource } from './sources';
import { openTigerFile } from './tiger';
import { openAddressPointsFile } from './address-points';

export interface ImportSummary {
  file: string;
  kind: StreetSource['kind'];
  source: string;
  rows: number;
  skipped: number;
  skippedReasons: Record<string, number>;
  seconds: number;
}

/** Rows a transaction: big enough that commits cost little, small enough to keep the writer free often. */
const BATCH = 20_000;

async function openSource(file: string): Promise<StreetSource> {
  const name = path.basename(file);
  if (!fs.existsSync(file)) throw new CommandRefused(`${file} does not exist.`);
  if (/\.zip$/i.test(name)) return openTigerFile(file);
  if (/\.(csv|txt)$/i.test(name)) return openAddressPointsFile(file);
  throw new CommandRefused(
    `${name} is neither a TIGER/Line ADDRFEAT county zip (tl_YYYY_SSCCC_addrfeat.zip), an OpenAddresses CSV (.csv) nor a National Address Database text export (.txt).`,
  );
}

export async function importStreetFile(
  store: Pick<Store, 'streets'>,
  file: string,
  onProgress?: (fraction: number, rows: number) => void,
): Promise<ImportSummary> {
  const started = Date.now();
  const source = await openSource(file);
  const loadId = `stl_${randomBytes(10).toString('hex')}`;
  const streets = store.streets;
  const summary: ImportSummary = {
    file: path.basename(file),
    kind: source.kind,
    source: source.source,
    rows: 0,
    skipped: 0,
    skippedReasons: {},
    seconds: 0,
  };
  let segments: SegmentRow[] = [];
  let points: PointRow[] = [];
  let names: NameRow[] = [];
  let zips: string[] = [];
  const seenNames = new Set<string>();
  const seenZips = new Set<string>();
  const flush = async () => {
    if (segments.length + points.length + names.length === 0) return;
    await streets.insertLoadBatch(loadId, { segments, points, names, zips });
    segments = [];
    points = [];
    names = [];
    zips = [];
    onProgress?.(source.progress(), summary.rows);
  };
  const name = (zip: string, street_key: string) => {
    const id = `${zip}|${street_key}`;
    if (seenNames.has(id)) return;
    seenNames.add(id);
    names.push({ zip, street_key });
    if (!seenZips.has(zip)) {
      seenZips.add(zip);
      zips.push(zip);
    }
  };
  let begun = false;
  try {
    await streets.beginLoad({
      id: loadId,
      kind: source.kind,
      source: source.source,
      file: path.resolve(file),
      startedAt: new Date(started).toISOString(),
    });
    begun = true;
    for await (const record of source.records) {
      if ('skip' in record) {
        summary.skipped++;
        summary.skippedReasons[record.skip] = (summary.skippedReasons[record.skip] ?? 0) + 1;
        continue;
      }
      summary.rows++;
      if ('point' in record) {
        points.push(record.point);
        name(record.point.zip, record.point.street_key);
      } else {
        for (const s of record.segments) {
          segments.push(s);
          name(s.zip, s.street_key);
        }
      }
      if (segments.length + points.length >= BATCH) await flush();
    }
    await flush();
    summary.seconds = (Date.now() - started) / 1000;
    await streets.activateLoad(loadId, {
      rows: summary.rows,
      skipped: summary.skipped,
      skippedReasons: summary.skippedReasons,
      loadedAt: new Date().toISOString(),
      seconds: summary.seconds,
    });
    summary.seconds = (Date.now() - started) / 1000;
    return summary;
  } catch (error) {
    if (begun) await streets.abandonLoad(loadId);
    throw error;
  } finally {
    await source.close();
  }
}
