// Counts work in flight and calls `onIdle` once nothing has been in flight for `idleMs`: the renderer's
// parts (browser, merge and thumbnail threads) hold hundreds of MB while they run, so an engine that
// renders now and then gives that memory back between bursts instead of keeping it for nothing.
export class IdleTimer {
  private busy = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `idleMs` 0 never calls `onIdle` (the parts stay up once started). */
  constructor(
    private readonly idleMs: number,
    private readonly onIdle: () => void,
  ) {}

  /** Marks one piece of work begun; call what it returns once, when it ends. */
  begin(): () => void {
    this.busy++;
    this.cancel();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.busy === 0) this.arm();
    };
  }

  /** Forgets a pending idle call (the parts were closed for good). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    if (this.idleMs <= 0) return;
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.busy === 0) this.onIdle();
    }, this.idleMs);
    // a pending stop must not keep a process alive that has nothing else to do
    this.timer.unref();
  }
}
