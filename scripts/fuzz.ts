// `npm run fuzz -- --minutes N [--seed S] [--databases sqlite,postgres]`: the test suite's fuzz property
// run for long against real engines, in rounds of fresh seeds. Prints each round's seed (FUZZ_SEED
// replays one in the test) and, at the end, the figures: requests, raw requests, answers by status.
import { parseArgs } from 'node:util';
import { startEngine, type Db } from '../test/helpers/engine';
import { DATABASES } from '../test/helpers/matrix';
import { fuzz, type FuzzFigures } from '../test/fuzz/property';
import { closeAgent } from '../test/fuzz/send';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { minutes: { type: 'string', default: '1' }, seed: { type: 'string' }, databases: { type: 'string' } },
  });
  const minutes = Number(values.minutes);
  const dbs = values.databases ? (values.databases.split(',') as Db[]) : DATABASES;
  let seed = values.seed ? Number(values.seed) : Date.now() % 2 ** 31;
  let failed = false;
  for (const db of dbs) {
    const engine = await startEngine({ db, settings: { rate_limit_per_5s: 1_000_000 } });
    const auth = `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`;
    const figures: FuzzFigures = { requests: 0, raw: 0, statuses: {} };
    const until = Date.now() + (minutes * 60_000) / dbs.length;
    const started = Date.now();
    try {
      while (Date.now() < until) {
        process.stdout.write(`${db}: round with seed ${seed}\n`);
        await fuzz({ url: engine.url, auth }, { runs: 1000, seed, figures });
        seed = (seed + 1) % 2 ** 31;
      }
    } catch (error) {
      failed = true;
      process.stdout.write(`${db}: FAILED with seed ${seed}\n${(error as Error).message}\n`);
    } finally {
      await engine.close();
    }
    const seconds = (Date.now() - started) / 1000;
    process.stdout.write(
      `${db}: ${figures.requests} requests and ${figures.raw} raw in ${seconds.toFixed(0)} s (${(figures.requests / seconds).toFixed(0)}/s); ` +
        `answers by status ${JSON.stringify(figures.statuses)}; ${failed ? 'FAILED' : 'no 5xx, every error in the spec body, engine alive'}\n`,
    );
    if (failed) break;
  }
  closeAgent();
  process.exitCode = failed ? 1 : 0;
}

void main();
