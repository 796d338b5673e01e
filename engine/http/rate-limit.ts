// Fixed 5-second windows per key and endpoint. Counted in this process, or in the database when several
// processes share one (store/rate-windows.ts): a user with four processes gets the limit once, not four times.
import { ApiError } from '../base/errors';

const WINDOW_MS = 5000;

export interface RateState {
  limit: number;
  remaining: number;
  /** UTC epoch seconds when the window resets */
  reset: number;
  /** this request is over the limit */
  exceeded: boolean;
}

/** Counts one hit in a bucket's window and gives the window's count including it. */
export interface HitCounter {
  add(bucket: string, windowStart: number): number | Promise<number>;
}

/** Windows kept in this process's memory. */
export class ProcessHitCounter implements HitCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  add(bucket: string, windowStart: number): number {
    let window = this.windows.get(bucket);
    if (!window || window.start !== windowStart) {
      if (this.windows.size > 100_000) this.sweep(windowStart);
      window = { start: windowStart, count: 0 };
      this.windows.set(bucket, window);
    }
    window.count += 1;
    return window.count;
  }

  private sweep(current: number): void {
    for (const [key, window] of this.windows) if (window.start !== current) this.windows.delete(key);
  }
}

export class RateLimiter {
  constructor(private readonly counter: HitCounter = new ProcessHitCounter()) {}

  /** Counts one request and tells where its window stands. */
  async hit(bucket: string, limit: number, now = Date.now()): Promise<RateState> {
    const start = now - (now % WINDOW_MS);
    const count = await this.counter.add(bucket, start);
    return {
      limit,
      remaining: Math.max(0, limit - count),
      reset: Math.ceil((start + WINDOW_MS) / 1000),
      exceeded: count > limit,
    };
  }
}

/** The spec's 429, with both header families and Retry-After. */
export const rateLimitExceeded = (state: RateState) =>
  new ApiError(
    'rate_limit_exceeded',
    'Rate limit exceeded. Please wait 5 seconds and try your request again.',
    429,
    rateHeaders(state),
  );

/** Both header families of the spec (and Retry-After once over the limit). */
export function rateHeaders(state: RateState): Record<string, string> {
  const values = { limit: String(state.limit), remaining: String(state.remaining), reset: String(state.reset) };
  return {
    ...(state.exceeded ? { 'Retry-After': String(WINDOW_MS / 1000) } : {}),
    'X-Rate-Limit-Limit': values.limit,
    'X-Rate-Limit-Remaining': values.remaining,
    'X-Rate-Limit-Reset': values.reset,
    'ratelimit-limit': values.limit,
    'ratelimit-remaining': values.remaining,
    'ratelimit-reset': values.reset,
  };
}
