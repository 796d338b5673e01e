// Fixed 5-second windows per key and endpoint, counted in this process.
import { ApiError } from '../errors';

const WINDOW_MS = 5000;

export interface RateState {
  limit: number;
  remaining: number;
  /** UTC epoch seconds when the window resets */
  reset: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts one request; throws 429 when the window is full. Returns the header values either way. */
  hit(bucket: string, limit: number, now = Date.now()): RateState {
    const start = now - (now % WINDOW_MS);
    let window = this.windows.get(bucket);
    if (!window || window.start !== start) {
      if (this.windows.size > 100_000) this.sweep(start);
      window = { start, count: 0 };
      this.windows.set(bucket, window);
    }
    window.count += 1;
    const state = { limit, remaining: Math.max(0, limit - window.count), reset: Math.ceil((start + WINDOW_MS) / 1000) };
    if (window.count > limit) {
      throw Object.assign(new ApiError('rate_limit_exceeded', 'Rate limit exceeded. Please wait 5 seconds and try your request again.', 429), { rate: state });
    }
    return state;
  }

  private sweep(current: number): void {
    for (const [key, window] of this.windows) if (window.start !== current) this.windows.delete(key);
  }
}

/** Both header families of the spec. */
export function rateHeaders(state: RateState): Record<string, string> {
  const values = { limit: String(state.limit), remaining: String(state.remaining), reset: String(state.reset) };
  return {
    'X-Rate-Limit-Limit': values.limit,
    'X-Rate-Limit-Remaining': values.remaining,
    'X-Rate-Limit-Reset': values.reset,
    'ratelimit-limit': values.limit,
    'ratelimit-remaining': values.remaining,
    'ratelimit-reset': values.reset,
  };
}
