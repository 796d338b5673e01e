// The render job composes pieces in worker threads (engine/print/overlay/compose-threads.ts): a piece
// composed there is byte for byte the piece composed in the calling thread, several at once each get
// their own, a composer's error comes back as the job's, and the threads end when idle.
import test from 'ava';
import { composePiece, type ComposeInput } from '../../engine/print/overlay/compose';
import { ComposeThreads } from '../../engine/print/overlay/compose-threads';
import { artwork, FROM, TO } from './overlay-fixtures';

const until = async (done: () => boolean, what: string) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
  if (!done()) throw new Error(`timed out: ${what}`);
};

test('a piece composed in a thread is the same bytes as one composed here, several at once', async (t) => {
  const threads = new ComposeThreads(0, 2);
  t.teardown(() => threads.close());
  const [front, back] = [await artwork(9.25, 6.25), await artwork(9.25, 6.25)];
  const inputs: ComposeInput[] = [1, 2, 3, 4].map((n) => ({
    kind: 'postcards',
    size: '6x9',
    piece: { id: `psc_thread${n}`, to: { ...TO, name: `Reader ${n}` }, from: FROM, mail_type: 'usps_first_class' },
    sides: { front, back },
  }));
  const here = await Promise.all(inputs.map((input) => composePiece(input)));
  const there = await Promise.all(inputs.map((input) => threads.compose(input)));
  t.is(threads.started, 2);
  there.forEach((pdf, i) => t.deepEqual(Buffer.from(pdf), Buffer.from(here[i]), `piece ${i + 1}`));
  t.notDeepEqual(Buffer.from(there[0]), Buffer.from(there[1]), 'each piece its own');
});

test('an error of the composer is the job error; the thread goes on', async (t) => {
  const threads = new ComposeThreads(0, 1);
  t.teardown(() => threads.close());
  const bad: ComposeInput = {
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_bad', to: TO },
    sides: { back: new Uint8Array([1, 2, 3]) },
  };
  await t.throwsAsync(threads.compose(bad), { message: /PDF|header|parse|Failed/i });
  const good = await threads.compose({ ...bad, sides: { back: await artwork(6.25, 4.25) } });
  t.is(Buffer.from(good.subarray(0, 5)).toString('latin1'), '%PDF-');
});

test('the compose threads start with a piece and end when idle', async (t) => {
  const threads = new ComposeThreads(300, 1);
  t.teardown(() => threads.close());
  t.is(threads.started, 0);
  await threads.compose({
    kind: 'postcards',
    size: '4x6',
    piece: { id: 'psc_idle', to: TO },
    sides: { back: await artwork(6.25, 4.25) },
  });
  t.is(threads.started, 1);
  await until(() => threads.started === 0, 'the compose threads end when idle');
  t.pass();
});
