// Ids: the spec's prefix and hex characters, the first four from the clock (so ids made together sit
// together in an index), the rest random; never repeated.
import test from 'ava';
import { newId } from '../../engine/base/ids';

const secondOfCycle = (ms: number) => (Math.floor(ms / 1000) & 0xffff).toString(16).padStart(4, '0');

test('an id is its prefix and 16 hex characters, the first four the second within an 18-hour cycle', (t) => {
  const before = Date.now();
  const id = newId('adr');
  const after = Date.now();
  t.regex(id, /^adr_[0-9a-f]{16}$/);
  t.true([secondOfCycle(before), secondOfCycle(after)].includes(id.slice(4, 8)), id);
  t.regex(newId('ord', 26), /^ord_[0-9a-f]{26}$/);
  t.regex(newId('blob', 24), /^blob_[0-9a-f]{24}$/);
});

test('ids shorter than 12 characters are all random', (t) => {
  const prefixes = new Set(Array.from({ length: 200 }, () => newId('x', 8).slice(2, 6)));
  t.true(prefixes.size > 150, `${prefixes.size} distinct leading characters in 200 ids`);
});

test('200,000 ids made at once are all different, and their random part is spread', (t) => {
  const ids = Array.from({ length: 200_000 }, () => newId('evt'));
  t.is(new Set(ids).size, ids.length);
  // the character after the clock's is uniform over the 16 hex digits
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id[8], (counts.get(id[8]) ?? 0) + 1);
  t.is(counts.size, 16);
  for (const n of counts.values()) t.true(Math.abs(n - 12_500) < 1_000, String(n));
});
