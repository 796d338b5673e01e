// `npm run bench`: every benchmark, figures printed.
import { benchAddresses } from './addresses';
import { benchListWalk } from './list-walk';

async function main(): Promise<void> {
  process.stdout.write('== POST and GET /v1/addresses (autocannon, 10 connections, 10 s each) ==\n');
  await benchAddresses(!process.argv.includes('--no-pg'));
  process.stdout.write('\n== list walk over 1,000,000 addresses ==\n');
  await benchListWalk(Number(process.env.WALK_ROWS ?? 1_000_000));
}

void main();
