// Nothing runs before it is needed: the browser, the merge thread and the thumbnail threads start with
// the first render that needs them, stop after their idle period (a short one here), and start again
// with the next render. An engine that only keeps addresses never starts a browser, and is healthy.
import fs from 'node:fs';
import test from 'ava';
import { createRenderer, IDLE_REASON, type PdfRequest } from '../../engine/print/browser';
import { MergeThread } from '../../engine/print/merge';
import { ThumbnailThreads } from '../../engine/print/thumbnails';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { minimalPdf, postcard, TO } from '../helpers/mail';
import { settled } from './helpers';

const IDLE_MS = 300;

/** Polls `ready` until it holds; the bound only keeps a broken build from hanging the suite. */
async function until(ready: () => boolean | Promise<boolean>, what: string, boundMs = 60_000): Promise<void> {
  const deadline = Date.now() + boundMs;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${boundMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const processExists = (pid: number) => fs.existsSync(`/proc/${pid}`);
const card: PdfRequest = { html: '<p>Hello</p>', widthIn: 6.25, heightIn: 4.25, timeoutMs: 10_000 };

test.serial('the browser starts on the first render, stops when idle, and starts again', async (t) => {
  const renderer = createRenderer({ pages: 1, systemPaths: [], idleMs: IDLE_MS });
  t.teardown(() => renderer.close());
  const located = await renderer.locate();
  t.like(located, { available: true, state: 'idle', source: 'bundled', reason: IDLE_REASON });
  t.is(located.pid, undefined, 'locating launches nothing');

  await renderer.htmlToPdf(card);
  // read before any timer can run: the idle period starts when the render has ended
  const first = renderer.status();
  t.like(first, { available: true, state: 'running' });
  t.regex(first.version ?? '', /Chrome\/\d+/);
  t.true(processExists(first.pid!), 'the browser process runs');

  await until(() => renderer.status().state === 'idle', 'the browser stops when idle');
  t.like(renderer.status(), { available: true, reason: IDLE_REASON, pid: undefined });
  t.false(processExists(first.pid!), 'its process is gone');

  await renderer.htmlToPdf(card);
  const second = renderer.status();
  t.is(second.state, 'running');
  t.not(second.pid, first.pid, 'a new browser');
  t.true(processExists(second.pid!));
});

test.serial(
  'a browser that no longer answers is killed when idle, so the renderer does not stay running',
  async (t) => {
    const renderer = createRenderer({ pages: 1, systemPaths: [], idleMs: IDLE_MS });
    t.teardown(() => renderer.close());
    await renderer.htmlToPdf(card);
    const { pid } = renderer.status();
    // stopped, it cannot answer the close; SIGKILL still ends it
    process.kill(pid!, 'SIGSTOP');
    await until(() => renderer.status().state === 'idle', 'a stopped browser is given up', 20_000);
    t.false(processExists(pid!), 'its process is gone');
    await renderer.htmlToPdf(card);
    t.is(renderer.status().state, 'running', 'the next render launches a new one');
  },
);

test.serial('without a Chromium, locating says why and nothing is launched', async (t) => {
  const missing = createRenderer({ pages: 1, chromiumPath: '/nonexistent/chromium', idleMs: IDLE_MS });
  t.teardown(() => missing.close());
  const status = await missing.locate();
  t.like(status, { available: false, state: 'unavailable' });
  t.regex(status.reason ?? '', /CHROMIUM_PATH=\/nonexistent\/chromium is not an executable file/);
});

test.serial('the merge thread starts with a merge and ends when idle', async (t) => {
  const merging = new MergeThread(IDLE_MS);
  t.teardown(() => merging.close());
  t.false(merging.started);
  t.is(await merging.merge({ html: '<p>{{n}}</p>', variables: { n: 1 } }, 5_000), '<p>1</p>');
  await until(() => !merging.started, 'the merge thread ends when idle');
  t.is(await merging.merge({ html: '<p>{{n}}</p>', variables: { n: 2 } }, 5_000), '<p>2</p>', 'and starts again');
});

test.serial('the thumbnail threads start with a job and end when idle', async (t) => {
  const threads = new ThumbnailThreads(60_000, 1, IDLE_MS);
  t.teardown(() => threads.close());
  t.is(threads.started, 0);
  t.is((await threads.thumbnails(minimalPdf('one'))).length, 1);
  t.is(threads.started, 1);
  await until(() => threads.started === 0, 'the thumbnail threads end when idle');
  t.is((await threads.thumbnails(minimalPdf('two'))).length, 1, 'and start again');
});

let engine: TestEngine;
test.before(async () => {
  engine = await startEngine({ workers: true, env: { RENDER_IDLE_MS: String(IDLE_MS) } });
});
test.after.always(() => engine?.close());

interface HealthBody {
  status: string;
  renderer: { available: boolean; state: string; source?: string; reason?: string };
}

test.serial('an engine that keeps addresses starts no browser and is healthy; a render starts it', async (t) => {
  const call = client(engine.url, engine.keys.test);
  const health = async () => (await call<HealthBody>('GET', '/health')).body;
  t.like(await health(), { status: 'ok', renderer: { available: true, state: 'idle', reason: IDLE_REASON } });

  t.is((await call('POST', '/v1/addresses', { json: TO })).status, 200);
  t.is((await call('GET', '/v1/addresses')).status, 200);
  t.like(await health(), { status: 'ok', renderer: { state: 'idle' } }, 'still no browser');

  const created = (await call<{ id: string }>('POST', '/v1/postcards', { json: postcard() })).body;
  const piece = await settled(call, '/v1/postcards', created.id);
  t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
  t.is(piece.thumbnails.length, 2);
  await until(async () => (await health()).renderer.state === 'idle', 'the engine stops its browser when idle');
  t.like(await health(), { status: 'ok', renderer: { available: true } });
});
