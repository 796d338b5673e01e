import { gzipSync } from 'node:zlib';
import test from 'ava';
import { readZipTables } from '../../../engine/domain/verify/zipdb-tables';

const HEADER = {
  format: 'printpost-zipdb',
  formatVersion: 1,
  sources: [{ name: 'x', version: '1.0.0', license: 'MIT' }],
};

const gz = (text: string) => gzipSync(Buffer.from(text, 'utf8'));

test('rows are read as JSON would read them: escapes, whitespace, exponents, null, any key order', (t) => {
  const text = `{ "rows" : [
    ["00610", "PR", "standard", "72011", "A\\u00d1ASCO", 1.82e1, -67.1, "A\\u00d1ASCO", "A\\"B]["],
    [ "94133","CA","standard","06075","SAN FRANCISCO",37.8,-122.41,"SAN FRANCISCO" ],
    ["09201","AE","military","","",null,null,"APO"]
  ],
  "header": ${JSON.stringify(HEADER)} }`;
  const tables = readZipTables(gz(text), 'test.json.gz');
  const row = (zip: number) => tables.byZip[zip] - 1;
  const pr = row(610);
  t.is(tables.names[tables.county[pr]], 'AÑASCO');
  t.is(tables.latitude[pr], 18.2);
  t.is(tables.longitude[pr], -67.1);
  t.deepEqual(
    [...tables.cityName.subarray(tables.cityStart[pr], tables.cityStart[pr + 1])].map((n) => tables.names[n]),
    ['AÑASCO', 'A"B]['],
  );
  t.is(tables.latitude[row(94133)], 37.8);
  t.true(Number.isNaN(tables.latitude[row(9201)]));
  t.is(tables.distinctZips, 3);
  t.deepEqual(tables.sources, HEADER.sources);
  t.true(tables.cityKeys.includes('SANFRANCISCO|CA'));
});

test('a file of another format, or a row that does not fit, is refused naming the file', (t) => {
  const rows = '[["94133","CA","standard","06075","SF",37.8,-122.41,"SF"]]';
  t.throws(() => readZipTables(gz(`{"header":{"format":"other","formatVersion":1},"rows":${rows}}`), 'a.gz'), {
    message: /a\.gz is not a printpost-zipdb v1 file/,
  });
  t.throws(() => readZipTables(gz(`{"header":${JSON.stringify(HEADER)}}`), 'b.gz'), { message: /b\.gz is not/ });
  const short = '[["94133","CA","standard"]]';
  t.throws(() => readZipTables(gz(`{"header":${JSON.stringify(HEADER)},"rows":${short}}`), 'c.gz'), {
    message: /c\.gz is not a printpost-zipdb v1 file \(row 0: row too short\)/,
  });
  const zip = '[["9413","CA","standard","06075","SF",37.8,-122.41,"SF"]]';
  t.throws(() => readZipTables(gz(`{"header":${JSON.stringify(HEADER)},"rows":${zip}}`), 'd.gz'), {
    message: /d\.gz is not .* \(row 0: the ZIP is not five digits\)/,
  });
});
