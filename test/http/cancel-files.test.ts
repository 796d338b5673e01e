// A cancelled piece's files go with it: the links handed out before the cancel answer 404 in the spec's
// body, and nothing of the piece stays in the asset folder, also when the cancel lands mid-render (the
// render finds the piece gone when it settles, and removes what it stored).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { databaseSuite } from '../helpers/suite';
import { postcard } from '../helpers/mail';
import { settled } from '../print/helpers';
import type { TestEngine } from '../helpers/engine';
import type { client } from '../helpers/http';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
// an image server that holds each answer until released, so a render can be caught mid-way
const held: (() => void)[] = [];
let images: http.Server;
let imagesUrl: string;
test.before(async () => {
  images = http.createServer((_req, res) => {
    held.push(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL));
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  imagesUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}`;
});
test.after.always(() => {
  images?.closeAllConnections();
  images?.close();
});

const { serial } = databaseSuite({
  workers: true,
  env: { ALLOWED_PRIVATE_NETWORKS: '127.0.0.0/8' },
  settings: { rate_limit_per_5s: 100000 },
});

/** Files of the piece in the engine's asset folder. */
const filesOf = (engine: TestEngine, id: string) =>
  (fs.readdirSync(engine.assets, { recursive: true }) as string[]).filter((f) => f.includes(id));

/** Waits until the engine's job queue has nothing queued or running. */
async function idle(api: ReturnType<typeof client>): Promise<void> {
  for (;;) {
    const { jobs } = (await api('GET', '/health')).body as { jobs: { queued: number; active: number } };
    if (jobs.queued === 0 && jobs.active === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

serial(
  'a cancelled piece: its PDF and thumbnail links answer 404 and its files are gone',
  async (t, { engine, api }) => {
    const created = (await api('POST', '/v1/postcards', { json: postcard() })).body as { id: string };
    const piece = await settled(api, '/v1/postcards', created.id);
    t.is(piece.status, 'rendered');
    const links = [piece.url!, ...piece.thumbnails.flatMap((sizes) => Object.values(sizes))];
    t.is(links.length, 7);
    for (const link of links) t.is((await fetch(link)).status, 200, link);
    t.true(filesOf(engine, created.id).length > 0);

    t.is((await api('DELETE', `/v1/postcards/${created.id}`)).status, 200);
    for (const link of links) {
      const reply = await fetch(link);
      t.is(reply.status, 404, link);
      const body = (await reply.json()) as { error: { code: string; status_code: number } };
      t.like(body.error, { code: 'not_found', status_code: 404 });
    }
    t.deepEqual(filesOf(engine, created.id), []);
  },
);

serial('a piece cancelled mid-render leaves no file once its render ends', async (t, { engine, api }) => {
  const front = `<html><body><img src="${imagesUrl}/slow.png"><p>Front</p></body></html>`;
  const created = (await api('POST', '/v1/postcards', { json: postcard({ front }) })).body as { id: string };
  while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 20)); // the render is fetching
  t.is((await api('DELETE', `/v1/postcards/${created.id}`)).status, 200);
  for (const release of held.splice(0)) release();
  await idle(api);
  t.deepEqual(filesOf(engine, created.id), []);
});
