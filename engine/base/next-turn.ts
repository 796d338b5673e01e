// Work the engine makes for itself (a campaign run's pieces, the pages of its audience) can go on
// in microtasks alone, since the store answers synchronously on SQLite: such a loop must give the
// event loop a turn now and then, or no request is answered until it ends.

/** Resolves after one turn of the event loop, once pending I/O (requests) has had its say. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
