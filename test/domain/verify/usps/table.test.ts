// Table-driven: messy real-world input -> Pub 28 lines, written by hand.
import test from 'ava';
import { parseUsAddress, standardize, standardizeAddress } from '../../../../engine/domain/verify/usps';
import { ADDRESS_CASES } from './fixtures/addresses';

test('the table holds at least 200 addresses', (t) => {
  t.true(ADDRESS_CASES.length >= 200);
});

ADDRESS_CASES.forEach(({ input, expected }, i) => {
  const title = `#${i} ${typeof input === 'string' ? input : JSON.stringify(input)}`;

  test(title, (t) => {
    const parsed = parseUsAddress(input);
    const lines = standardize(parsed);
    t.deepEqual(lines, {
      primaryLine: expected.primaryLine,
      secondaryLine: expected.secondaryLine ?? '',
      lastLine: expected.lastLine,
      urbanization: expected.urbanization ?? '',
    });
    if (expected.kind) t.is(parsed.kind, expected.kind);
  });

  test(`${title} is stable when standardized again`, (t) => {
    const once = standardizeAddress(input);
    const again = standardizeAddress({
      primaryLine: once.primaryLine,
      secondaryLine: [once.urbanization, once.secondaryLine].filter((p) => p !== '').join(' '),
      lastLine: once.lastLine,
    });
    t.deepEqual(again, once);
    const oneLine = [once.urbanization, once.primaryLine, once.secondaryLine, once.lastLine]
      .filter((p) => p !== '')
      .join(', ');
    t.deepEqual(standardizeAddress(oneLine), once);
  });
});
