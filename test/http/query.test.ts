import test from 'ava';
import qs from 'qs';
import { parseQuery } from '../../engine/http/query';

const viaQs = (raw: string) =>
  qs.parse(raw, { depth: 3, arrayLimit: 100, parameterLimit: 200, allowPrototypes: false, duplicates: 'combine' });

test('plain pairs read directly give what qs gives', (t) => {
  const cases = [
    'limit=10',
    '?limit=10&offset=0',
    'limit=10&before=adr_0123456789abcdef',
    'send_date=2026-11-26T10:00:00.000Z&status=processed',
    'a=&b=2',
    'include=total_count&include=total_count',
    'hasOwnProperty=1&limit=2',
    'toString=x',
    '__proto__=x',
    Array.from({ length: 250 }, (_, i) => `k${i}=${i}`).join('&'),
  ];
  for (const raw of cases) t.deepEqual({ ...parseQuery(raw) }, { ...viaQs(raw.replace(/^\?/, '')) }, raw);
  t.deepEqual(parseQuery(''), {});
  t.deepEqual(parseQuery('?'), {});
});

test('brackets, encoded values and JSON values still take the full reading', (t) => {
  t.deepEqual(parseQuery('date_created[gt]=2026-01-01&include[]=total_count'), {
    date_created: { gt: '2026-01-01' },
    include: ['total_count'],
  });
  t.deepEqual(parseQuery('name=a%20b+c'), { name: 'a b c' });
  t.deepEqual(parseQuery('metadata=%7B%22k%22%3A%22v%22%7D'), { metadata: { k: 'v' } });
});
