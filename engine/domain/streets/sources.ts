// What a street data file yields to the loader, whatever its format: rows of one kind, or a skip
// with its reason. A reader checks the file before it yields anything, so a file it refuses leaves
// the data as it was.
import type { PointRow, SegmentRow, StreetLoadKind } from '../../store/streets';

export type StreetRecord =
  | { segments: SegmentRow[] }
  | { point: PointRow }
  /** why the row was left out (counted in the summary) */
  | { skip: string };

export interface StreetSource {
  kind: StreetLoadKind;
  /** what a later load of the same kind replaces: the county FIPS, or the points file's source name */
  source: string;
  records: AsyncIterable<StreetRecord>;
  /** how far through the file the reader is, 0 to 1 (for the progress bar) */
  progress(): number;
  /** removes what the reader unpacked */
  close(): Promise<void>;
}
