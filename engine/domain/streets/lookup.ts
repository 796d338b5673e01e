// The street data's verdict on one address, read from the store: the street's ranges and points in
// one query, the ZIP's street names only when that street is not there as given. The ZIPs the data
// covers are kept in memory, so a ZIP without data costs one small read (none on SQLite between
// commits) instead of three lookups, and a ZIP with data goes straight to its street's rows.
import type { StreetLookups } from '../../store/streets';
import { byKind, correctStreet, streetKey, verdictOn, type StreetQuestion, type StreetVerdict } from './match';

interface Covered {
  zips: ReadonlySet<string>;
  /** SQLite's commit stamp when last checked: unchanged, nothing can have been loaded since */
  stamp: number | undefined;
  /** the active loads' version the zips were read at */
  version: string;
}

const covered = new WeakMap<StreetLookups, Covered>();

/**
 * Whether the ZIP has data. A ZIP already known to have some is asked at once (its lookups join the
 * active loads, so a ZIP a new load dropped finds no names and answers `no_data` all the same); any
 * other re-reads the ZIPs only when the active loads changed: one small read of the loads' version
 * (none on SQLite while no connection has committed), the ZIP list only after an import.
 */
async function mayHaveData(lookups: StreetLookups, zip: string): Promise<boolean> {
  const known = covered.get(lookups);
  if (known?.zips.has(zip)) return true;
  return (await zipsWithData(lookups)).has(zip);
}

async function zipsWithData(lookups: StreetLookups): Promise<ReadonlySet<string>> {
  const stamp = lookups.changeStamp();
  const known = covered.get(lookups);
  if (known && stamp !== undefined && stamp === known.stamp) return known.zips;
  const version = await lookups.loadsVersion();
  if (known && version === known.version) {
    covered.set(lookups, { ...known, stamp });
    return known.zips;
  }
  const zips = new Set(await lookups.zipsWithData());
  covered.set(lookups, { zips, stamp, version });
  return zips;
}

export async function streetVerdict(lookups: StreetLookups, zip: string, q: StreetQuestion): Promise<StreetVerdict> {
  if (!(await mayHaveData(lookups, zip))) return { answer: 'no_data' };
  const given = streetKey(q.parts);
  const { segments, points } = await lookups.streetOf(zip, given);
  if (segments.length > 0 || points.length > 0)
    return verdictOn(q, given, segments.length > 0 ? 'street_ranges' : 'address_points', segments, points);
  const names = await lookups.namesIn(zip);
  if (names.length === 0) return { answer: 'no_data' };
  const by = byKind(names.map((n) => n.kind));
  const key = correctStreet(q.parts, names);
  if (key === undefined) return { answer: 'unknown_street', by };
  const found = await lookups.streetOf(zip, key);
  return verdictOn(q, key, by, found.segments, found.points);
}
