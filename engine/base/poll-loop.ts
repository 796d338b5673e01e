// A background pass run again and again until stopped: the event dispatcher, the tracking inbox, the
// campaign scheduler. A pass that says it is busy (it took a full batch) is followed at once; one that
// fails is logged and tried again after a longer pause; stop() waits for the pass in flight.

export interface PollLoop {
  stop(): Promise<void>;
}

export interface PollOptions {
  /** pause between passes that found little to do */
  pollMs: number;
  /** pause after a failed pass (default 10 x pollMs) */
  failedMs?: number;
  /** where the failure is reported */
  onError(error: unknown): void;
}

/** Starts `pass` at once; it resolves true when more work is waiting. */
export function pollLoop(pass: () => Promise<boolean | void>, options: PollOptions): PollLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const schedule = (ms: number) => {
    if (!stopped) timer = setTimeout(tick, ms);
  };
  const tick = () => {
    running = pass()
      .then((busy) => schedule(busy === true ? 0 : options.pollMs))
      .catch((error: unknown) => {
        options.onError(error);
        schedule(options.failedMs ?? options.pollMs * 10);
      });
  };
  schedule(0);
  return {
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
