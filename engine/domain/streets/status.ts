// What street data is loaded, by kind: the read model `GET /health` and the dashboard's health page
// show, so an operator sees which counties and sources live verification can judge streets with.
import type { StreetLoad, StreetLoadKind } from '../../store/streets';
import type { StreetEvidence } from './match';

/** Sources named in full at most (a whole country is three thousand counties); `sources` counts all. */
const NAMED = 20;

export interface StreetDataKind {
  kind: StreetLoadKind;
  /** what this kind answers with, as a live verification's `street_data` says it */
  answers: Exclude<StreetEvidence, 'last_line'>;
  /** how many counties (TIGER/Line) or sources (address points) are loaded */
  sources: number;
  /** their FIPS codes or names, sorted, the first 20 */
  names: string[];
  rows: number;
  /** when the latest of them was loaded */
  loaded_at: string;
}

/** Nothing loaded: an empty list, and every live verification checks the last line only. */
export type StreetDataStatus = StreetDataKind[];

const ORDER: StreetLoadKind[] = ['tiger_addrfeat', 'openaddresses', 'nad'];

export function streetDataStatus(loads: readonly StreetLoad[]): StreetDataStatus {
  return ORDER.flatMap((kind) => {
    const of = loads.filter((l) => l.kind === kind);
    if (of.length === 0) return [];
    const names = of.map((l) => l.source).sort();
    return [
      {
        kind,
        answers: kind === 'tiger_addrfeat' ? 'street_ranges' : 'address_points',
        sources: of.length,
        names: names.slice(0, NAMED),
        rows: of.reduce((sum, l) => sum + l.rows, 0),
        loaded_at: of.map((l) => l.loaded_at).reduce((a, b) => (b > a ? b : a)),
      },
    ];
  });
}

/** The status read from the store's active loads. */
export async function loadedStreetData(streets: { activeLoads(): Promise<StreetLoad[]> }): Promise<StreetDataStatus> {
  return streetDataStatus(await streets.activeLoads());
}
