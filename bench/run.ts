// `npm run bench`: every benchmark, figures printed.
import { benchAddresses } from './addresses';
import { benchListWalk } from './list-walk';
import { benchVerify } from './verify';

async function main(): Promise<void> {
  process.stdout.write('== POST and GET /v1/addresses (autocannon, 10 connections, 10 s each) ==\n');
  await benchAddresses(!process.argv.includes('--no-pg'));
  process.stdout.write('\n== list walk over 1,000,000 addresses ==\n');
  await benchListWalk(Number(process.env.WALK_ROWS ?? 1_000_000));
  process.stdout.write('\n== live US verification and the ZIP database ==\n');
  await benchVerify(!process.argv.includes('--no-http'));
}

void main();
