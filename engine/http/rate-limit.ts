// Fixed 5-second windows per key and endpoint, counted in this process.
import { ApiError } from '../errors';

const WINDOW_MS = 5000;

export interface RateState {
  limit: number;
  remaining: number;
  /** UTC epoch seconds when the window resets */
  reset: number;
  /** this request is over the limit */
  exceeded: boolean;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts one request and tells where its window stands. */
  hit(bucket: string, limit: number, now = Date.now()): RateState {
    const start = now - (now % WINDOW_MS);
    let window = this.windows.get(bucket);
    if (!window || window.start !== start) {
      if (this.windows.size > 100_000) this.sweep(start);
      window = { start, count: 0 };
      this.windows.set(bucket, window);
    }
    window.count += 1;
    return { limit, remaining: Math.max(0, limit - window.count), reset: Math.ceil((start + WINDOW_MS) / 1000), exceeded: window.count > limit };
  }

  private sweep(current: number): void {
    for (const [key, window] of this.windows) if (window.start !== current) this.windows.delete(key);
  }
}

export const rateLimitExceeded = () => new ApiError('rate_limit_exceeded', 'Rate limit exceeded. Please wait 5 seconds and try your request again.', 429);

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
