// A fair share of this process's delivery slots per account: one account's slow receivers (each
// delivery may take WEBHOOK_TIMEOUT_MS) can hold at most `perAccount` of them, so another account's
// deliveries always find a slot. A job over its account's share ends at once without sending; its
// webhook's deliveries stay due and the dispatch loop queues it again on its next pass.
export class AccountSlots {
  private readonly held = new Map<string, number>();

  constructor(private readonly perAccount: number) {}

  /** A slot for `account`, released by calling what it returns; undefined when its share is in use. */
  take(account: string): (() => void) | undefined {
    const held = this.held.get(account) ?? 0;
    if (held >= this.perAccount) return undefined;
    this.held.set(account, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.held.get(account) ?? 1) - 1;
      if (now === 0) this.held.delete(account);
      else this.held.set(account, now);
    };
  }
}
