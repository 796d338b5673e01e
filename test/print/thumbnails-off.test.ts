// RENDER_THUMBNAILS=off (the render bench's PDF-only engine): a postcard is rendered, its PDF stored and
// `rendered_pdf` recorded, and no thumbnails job is queued, so it never gets thumbnails nor their event.
import test from 'ava';
import { startEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard } from '../helpers/mail';
import { download, settled } from './helpers';

test('with RENDER_THUMBNAILS=off a piece is rendered without thumbnails', async (t) => {
  const engine = await startEngine({ workers: true, env: { RENDER_THUMBNAILS: 'off' } });
  t.teardown(() => engine.close());
  const call = client(engine.url, engine.keys.test);
  const created = (await call<{ id: string }>('POST', '/v1/postcards', { json: postcard() })).body;
  const piece = await settled(call, '/v1/postcards', created.id, 60_000, true);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  t.is((await download(String(piece.url))).status, 200);
  // what a thumbnails job would have recorded by now, had one been queued
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const events = await call<{ data: { event_type: { id: string } }[] }>('GET', `/v1/events?limit=100`);
  const types = events.body.data.map((e) => e.event_type.id);
  t.true(types.includes('postcard.rendered_pdf'), types.join(', '));
  t.false(types.includes('postcard.rendered_thumbnails'), types.join(', '));
  const again = (await call<{ thumbnails: unknown[] }>('GET', `/v1/postcards/${created.id}`)).body;
  t.deepEqual(again.thumbnails, []);
});
