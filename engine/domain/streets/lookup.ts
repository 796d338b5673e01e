// The street data's verdict on one address, read from the store: the street's ranges and points in
// one round, the ZIP's street names only when that street is not there as given.
import type { StreetLookups } from '../../store/streets';
import { byKind, correctStreet, streetKey, verdictOn, type StreetQuestion, type StreetVerdict } from './match';

export async function streetVerdict(lookups: StreetLookups, zip: string, q: StreetQuestion): Promise<StreetVerdict> {
  const given = streetKey(q.parts);
  const [segments, points] = await Promise.all([lookups.segmentsOf(zip, given), lookups.pointsOf(zip, given)]);
  if (segments.length > 0 || points.length > 0)
    return verdictOn(q, given, segments.length > 0 ? 'street_ranges' : 'address_points', segments, points);
  const names = await lookups.namesIn(zip);
  if (names.length === 0) return { answer: 'no_data' };
  const by = byKind(names.map((n) => n.kind));
  const key = correctStreet(q.parts, names);
  if (key === undefined) return { answer: 'unknown_street', by };
  const [s, p] = await Promise.all([lookups.segmentsOf(zip, key), lookups.pointsOf(zip, key)]);
  return verdictOn(q, key, by, s, p);
}
