// A file kept once in the asset store for many pieces (a creative's uploaded side, which every piece a
// run makes from it names instead of copying it). Only engine code makes one (a WeakSet, as for
// uploads), so no body from the wire can name a stored file, its own or another account's.

import type { FileSource } from '../../store/piece-inputs';

export type { FileSource } from '../../store/piece-inputs';

export interface StoredArtwork {
  source: FileSource;
  /** where the file is, for a check that must read it again (a letter abroad takes fewer pages) */
  assetKey: string;
}

const made = new WeakSet<object>();

export function storedArtwork(source: FileSource, assetKey: string): StoredArtwork {
  const stored = { source, assetKey };
  made.add(stored);
  return stored;
}

export const isStoredArtwork = (value: unknown): value is StoredArtwork =>
  typeof value === 'object' && value !== null && made.has(value);
