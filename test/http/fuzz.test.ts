// Property-based fuzzing over every catalog operation and raw malformed HTTP, on both databases: no 5xx,
// the spec's error body on every 4xx, the engine alive afterwards. `npm run fuzz -- --minutes N` runs
// the same property for long; FUZZ_SEED replays a failure reported here.
import { databaseSuite } from '../helpers/suite';
import { fuzz } from '../fuzz/property';
import { closeAgent } from '../fuzz/send';
import test from 'ava';

const { test: each } = databaseSuite({ settings: { rate_limit_per_5s: 1_000_000 } });

test.after.always(closeAgent);

each(
  '400 generated requests and 40 raw ones: no 5xx, every error in the spec body, still serving',
  async (t, { engine }) => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261123);
    const auth = `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`;
    await fuzz({ url: engine.url, auth }, { runs: 400, seed });
    t.is(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  },
);
