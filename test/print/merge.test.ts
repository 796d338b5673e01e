// The merge thread: Handlebars runs off the engine's thread, one merge at a time, each within its time;
// a runaway merge ends with its thread and fails alone, the ones queued behind it still merge.
import test from 'ava';
import { MergeFailed, MergeThread } from '../../engine/print/merge';

const thread = new MergeThread();
test.after.always(() => thread.close());

const RUNAWAY = '{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}x{{/each}}{{/each}}{{/each}}{{/each}}';
const a = Array.from({ length: 300 }, (_, i) => i);

test.serial('variables are merged, escaped; missing ones are empty; HTML without tags passes as it is', async (t) => {
  t.is(
    await thread.merge({ html: '<p>{{name}} {{missing}}</p>', variables: { name: '<Harry>' } }, 5_000),
    '<p>&lt;Harry&gt; </p>',
  );
  const plain = '<p>no tags</p>';
  t.is(await thread.merge({ html: plain, variables: {} }, 5_000), plain);
  const list = '{{#each items}}[{{this}}]{{/each}}';
  t.is(await thread.merge({ html: list, variables: { items: [1, 2] }, cacheKey: 'vrsn_a' }, 5_000), '[1][2]');
  t.is(await thread.merge({ html: list, variables: { items: [3] }, cacheKey: 'vrsn_a' }, 5_000), '[3]', 'kept by key');
});

test.serial('a runaway merge times out alone: the merges queued behind it still merge', async (t) => {
  const runaway = thread.merge({ html: RUNAWAY, variables: { a } }, 1_000);
  const behind = thread.merge({ html: '<p>{{n}}</p>', variables: { n: 7 } }, 1_000);
  const error = await t.throwsAsync(runaway, { instanceOf: MergeFailed });
  t.is(error?.reason, 'timeout');
  t.is(await behind, '<p>7</p>');
});

test.serial('a helper Handlebars does not know fails the merge with its reason', async (t) => {
  const error = await t.throwsAsync(thread.merge({ html: '{{shout name}}', variables: { name: 'x' } }, 5_000), {
    instanceOf: MergeFailed,
  });
  t.is(error?.reason, 'template');
  t.regex(error!.message, /Missing helper: "shout"/);
  t.is(await thread.merge({ html: '{{n}}', variables: { n: 1 } }, 5_000), '1');
});
