// A campaign's DELETE tells the truth (both databases): when it answers, no piece of the campaign is
// live, each cancelled piece has its own `postcard.deleted` event, a piece already in production stays
// and is counted in the answer, and a run still making pieces adds no live piece after the answer.
import { databaseSuite } from '../../helpers/suite';
import { client } from '../../helpers/http';
import { TO } from '../../helpers/mail';
import { campaignPieces, newCampaign, postcardCreative, settledRun } from '../../helpers/campaign';

const { serial } = databaseSuite();
// pieces go to production only once rendered: this suite's engines render
const rendering = databaseSuite({ workers: true });

type Api = ReturnType<typeof client>;

/** Every `postcard.deleted` event's piece id (following next_url). */
async function deletedPieceIds(api: Api): Promise<Set<string>> {
  const ids = new Set<string>();
  let path: string | null = '/v1/events?event_type=postcard.deleted&limit=100';
  while (path) {
    const reply: { body: { data: { body: { id: string } }[]; next_url: string | null } } = await api('GET', path);
    for (const e of reply.body.data) ids.add(e.body.id);
    const next = reply.body.next_url === null ? null : new URL(reply.body.next_url);
    path = next && next.pathname + next.search;
  }
  return ids;
}

async function rendered(api: Api, id: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const piece = await api('GET', `/v1/postcards/${id}`);
    if (piece.body.status === 'rendered') return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${id} was not rendered`);
}

rendering.test(
  'a campaign delete answers once every piece not in production is cancelled, with its event, and counts those in production',
  async (t, { engine }) => {
    const api = client(engine.url, (await engine.createAccount()).test);
    const segment = `truth-${Date.now()}`;
    for (const name of ['Ann', 'Bob', 'Cat'])
      await api('POST', '/v1/addresses', { json: { ...TO, name, metadata: { segment } } });
    const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
    await postcardCreative(t, api, cmp.id);
    const run = await api('POST', `/v1/campaigns/${cmp.id}/send`);
    await settledRun(api, cmp.id, run.body.id);
    const pieces = await campaignPieces(api, cmp.id);
    t.is(pieces.length, 3);
    // one piece goes to production (a test piece's simulated production): it cannot be cancelled
    const produced = pieces[0].id;
    await rendered(api, produced);
    const simulated = await api('POST', `/v1/postcards/${produced}/simulate`, { json: { through: 'mailed' } });
    t.is(simulated.status, 200, JSON.stringify(simulated.body));

    const deleted = await api('DELETE', `/v1/campaigns/${cmp.id}`);
    t.is(deleted.status, 200, JSON.stringify(deleted.body));
    t.deepEqual(deleted.body, { id: cmp.id, deleted: true, pieces_cancelled: 2, pieces_in_production: 1 });
    // right after the answer, not a background pass later
    t.deepEqual(
      (await campaignPieces(api, cmp.id)).map((p) => p.id),
      [produced],
      'only the piece in production is live',
    );
    const events = await deletedPieceIds(api);
    for (const p of pieces.slice(1)) {
      t.is((await api('GET', `/v1/postcards/${p.id}`)).status, 404, `${p.id} is cancelled`);
      t.true(events.has(p.id), `${p.id} has its postcard.deleted event`);
    }
    t.false(events.has(produced));
    t.is((await api('DELETE', `/v1/campaigns/${cmp.id}`)).status, 404, 'deleted once');
  },
);

serial(
  'a campaign deleted while its run makes pieces has no live piece when the delete answers, nor after',
  async (t, { engine }) => {
    // an account of its own: its address creates count against its own rate limit (150 in 5 s)
    const api = client(engine.url, (await engine.createAccount()).test);
    const segment = `race-del-${Date.now()}`;
    for (let i = 0; i < 140; i++) {
      const created = await api('POST', '/v1/addresses', { json: { ...TO, name: `Run ${i}`, metadata: { segment } } });
      if (created.status !== 200) t.fail(JSON.stringify(created.body));
    }
    const cmp = await newCampaign(t, api, { audience: { metadata: { segment } } });
    // three creatives: 420 pieces to make, so the run is still making them when the delete comes
    for (let i = 0; i < 3; i++) await postcardCreative(t, api, cmp.id);
    t.is((await api('POST', `/v1/campaigns/${cmp.id}/send`)).status, 200);
    // the run has made some pieces already
    for (let i = 0; i < 100 && (await campaignPieces(api, cmp.id)).length < 20; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    const deleted = await api('DELETE', `/v1/campaigns/${cmp.id}`);
    t.is(deleted.status, 200, JSON.stringify(deleted.body));
    t.true(Number(deleted.body.pieces_cancelled) >= 20, JSON.stringify(deleted.body));
    t.is((await campaignPieces(api, cmp.id)).length, 0, 'no live piece when the delete answers');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    t.is((await campaignPieces(api, cmp.id)).length, 0, 'and none is made after');
    const events = await deletedPieceIds(api);
    t.is(events.size, Number(deleted.body.pieces_cancelled), 'one postcard.deleted event a cancelled piece');
  },
);
