// What the process holds, for GET /health: operators see how near MAX_RSS_MB it runs, and whether the
// young generation has the size `printpost serve` starts it with (bin/printpost's first line).
import v8 from 'node:v8';

export interface MemoryReport {
  rss_mb: number;
  /** MAX_RSS_MB, over which work is refused; null when no ceiling is set */
  limit_mb: number | null;
  heap_used_mb: number;
  /** V8's young generation as committed now (both semi-spaces): at most twice --max-semi-space-size */
  young_generation_mb: number;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export function memoryReport(limitMb: number): MemoryReport {
  const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  return {
    rss_mb: mb(process.memoryUsage.rss()),
    limit_mb: limitMb > 0 ? limitMb : null,
    heap_used_mb: mb(v8.getHeapStatistics().used_heap_size),
    young_generation_mb: mb(young?.space_size ?? 0),
  };
}
