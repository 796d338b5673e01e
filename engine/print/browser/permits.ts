// A counting semaphore: as many renders at once as there are warm pages, the rest wait in order.
export class Permits {
  private readonly waiters: (() => void)[] = [];

  constructor(private free: number) {}

  /** Resolves with the function that gives the permit back (to the next waiter, if any). */
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiters.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      if (next) next();
      else this.free++;
    };
  }
}
