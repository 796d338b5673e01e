// Rendering takes turns between accounts: a campaign's pieces render behind another account's single
// postcard made after them (its n-th piece after every account's first n), so one account's long run
// does not hold back another's piece. SQLite, with the engine's two render workers.
import test from 'ava';
import { startEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard, TO } from '../helpers/mail';
import { newCampaign, postcardCreative, settledRun } from '../helpers/campaign';
import { settled } from './helpers';

test("another account's campaign does not hold back a single postcard's render", async (t) => {
  const engine = await startEngine({ workers: true });
  t.teardown(() => engine.close());
  const busy = client(engine.url, (await engine.createAccount()).test);
  const segment = `busy-${Date.now()}`;
  for (let i = 0; i < 60; i++)
    await busy('POST', '/v1/addresses', { json: { ...TO, name: `Busy ${i}`, metadata: { segment } } });
  const cmp = await newCampaign(t, busy, { audience: { metadata: { segment } } });
  await postcardCreative(t, busy, cmp.id);
  const run = await busy('POST', `/v1/campaigns/${cmp.id}/send`);
  t.like(await settledRun(busy, cmp.id, run.body.id), { pieces_created: 60 });

  const quiet = client(engine.url, (await engine.createAccount()).test);
  const mine = await quiet('POST', '/v1/postcards', { json: postcard() });
  t.is(mine.status, 200, JSON.stringify(mine.body));
  const piece = await settled(quiet, '/v1/postcards', mine.body.id, 60_000, true);
  t.is(piece.status, 'rendered');
  const rendered = await busy('GET', `/v1/postcards?campaign_id=${cmp.id}&status=rendered&limit=100`);
  const before = rendered.body.data.length as number;
  t.log(`the campaign had ${before} of its 60 pieces rendered when the single postcard was`);
  t.true(before < 30, `${before} of the campaign's pieces rendered first`);
});
