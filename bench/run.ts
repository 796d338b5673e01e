// `npm run bench`: every benchmark, figures printed; `npm run bench -- render` the render bench alone.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { benchAddresses } from './addresses';
import { benchBeforeAfter } from './before-after';
import { benchListWalk } from './list-walk';
import { benchVerify } from './verify';
import { benchRender } from './render';
import { benchEvents } from './events';
import { benchFairness } from './fairness';
import { benchIdleMemory } from './idle-memory';
import { benchCampaignRun } from './campaign-run';
import { benchPostgresWal } from './pg-wal';

async function main(): Promise<void> {
  const pg = !process.argv.includes('--no-pg');
  if (process.argv.includes('render')) {
    // `npm run bench -- render [--throughput]`: issue 39's render ratios (and, without --throughput, latencies)
    await benchRender(false, process.argv.includes('--throughput'));
    return;
  }
  process.stdout.write('== POST and GET /v1/addresses (autocannon, 32 connections, 10 s each) ==\n');
  await benchAddresses(pg);
  process.stdout.write('\n== address and postcard create before and after events (alternating builds) ==\n');
  await benchBeforeAfter();
  if (pg) {
    process.stdout.write('\n== what a postcard writes on PostgreSQL (WAL, events table) ==\n');
    await benchPostgresWal();
  }
  process.stdout.write('\n== webhook delivery: events/s to a local receiver, create -> webhook at 100/s ==\n');
  await benchEvents(false);
  if (pg) await benchEvents(true);
  process.stdout.write("\n== fairness: one account's latency alone and beside a tenant with slow receivers ==\n");
  await benchFairness(false);
  if (pg) await benchFairness(true);
  process.stdout.write('\n== list walk over 1,000,000 addresses ==\n');
  await benchListWalk(Number(process.env.WALK_ROWS ?? 1_000_000));
  process.stdout.write('\n== live US verification and the ZIP database ==\n');
  await benchVerify(!process.argv.includes('--no-http'));
  process.stdout.write('\n== street data: a million TIGER/Line segments imported, verification with and without ==\n');
  execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'streets.ts')], { stdio: 'inherit' });
  process.stdout.write('\n== renderer: warm-page pool against a new page per piece, and a 60-page letter ==\n');
  // its own process, so its RSS figures are its own
  execFileSync(process.execPath, ['--import', 'tsx', path.join(__dirname, 'render-core.ts')], { stdio: 'inherit' });
  process.stdout.write('\n== rendering through the engine (printpost serve, 2 workers) ==\n');
  await benchRender(false);
  if (pg) await benchRender(true);
  process.stdout.write('\n== a campaign run of 10,000 postcards from a template: pieces/s, renders queued behind ==\n');
  await benchCampaignRun(pg);
  process.stdout.write('\n== what an idle engine holds: RSS at start, after renders, after RENDER_IDLE_MS ==\n');
  await benchIdleMemory();
}

void main();
