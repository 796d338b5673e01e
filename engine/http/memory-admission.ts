// Memory admission: past MAX_RSS_MB of resident memory the engine takes no new work. A request that
// brings a body (a create, an update, an upload) is refused before its body is read, so the process
// does not grow further towards the kernel's OOM killer, which would end every request and render at
// once; reads and `GET /health` still answer, so operators and load balancers can see why.
import type Koa from 'koa';
import { ApiError } from '../base/errors';

/** Methods that bring work: their bodies are parsed, validated and stored. */
const TAKES_WORK = new Set(['POST', 'PUT', 'PATCH']);

/** Seconds a refused client is asked to wait: long enough for a render burst to finish and memory to fall. */
export const MEMORY_RETRY_AFTER_S = 10;

/** How long one reading of the resident memory stands for: reading it is a /proc file read, which
 * costs 10 to 100 µs under load (the kernel takes the process's memory-map lock), more than an address
 * create's own work in the request path; memory grows far slower than that. */
export const RSS_READING_MS = 100;

/**
 * Refuses work with the spec's 503 while the process's resident memory is over `maxRssMb` (0: never).
 * `rss` is the reading (process.memoryUsage.rss), taken at most once per RSS_READING_MS.
 */
export function admitUnderMemory(
  maxRssMb: number,
  rss: () => number = process.memoryUsage.rss,
  readingMs = RSS_READING_MS,
): Koa.Middleware {
  if (maxRssMb <= 0) return (_ctx, next) => next();
  const ceiling = maxRssMb * 1024 * 1024;
  let used = 0;
  let readAt = -Infinity;
  return (ctx, next) => {
    if (!TAKES_WORK.has(ctx.method)) return next();
    const now = performance.now();
    if (now - readAt >= readingMs) {
      used = rss();
      readAt = now;
    }
    if (used <= ceiling) return next();
    throw new ApiError(
      'service_unavailable',
      `The engine is using ${Math.round(used / 1024 / 1024)} MB of memory, over its limit of ${maxRssMb} MB, and takes no new work until it falls. Please retry later.`,
      503,
      { 'Retry-After': String(MEMORY_RETRY_AFTER_S) },
    );
  };
}
