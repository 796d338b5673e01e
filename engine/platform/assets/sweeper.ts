// Runs a store's sweep at start and then at intervals: a writer killed mid-write is often restarted at
// once, when its leftovers are still too young to tell from another process's write in progress.
import type { AssetStore } from './store';
import { STALE_PART_MS } from './directory-store';

/** Starts sweeping `store` (if it has anything to sweep); the returned function stops it. */
export function startSweeping(store: AssetStore, onError: (error: unknown) => void): () => void {
  if (!store.sweep) return () => undefined;
  const sweep = () => void store.sweep?.().catch(onError);
  sweep();
  const timer = setInterval(sweep, STALE_PART_MS);
  timer.unref();
  return () => clearInterval(timer);
}
