// The packs' hand-written multipart bodies: bracket-form fields and file parts that busboy (the
// engine's parser) reads back as sent.
import test from 'ava';
import Busboy from 'busboy';
import { Readable } from 'node:stream';
import { formPairs, multipartChunks } from '../../nodes/common/multipart';

test('formPairs: nested objects and arrays in bracket form; null and undefined left out', (t) => {
  t.deepEqual(
    formPairs({
      to: { name: 'Harry', address_line2: null },
      merge_variables: { name: 'H', offer: { percent: 10 }, items: ['a', 'b'] },
      color: false,
      amount: 12.5,
      description: undefined,
      cards: [],
    }),
    [
      ['to[name]', 'Harry'],
      ['merge_variables[name]', 'H'],
      ['merge_variables[offer][percent]', '10'],
      ['merge_variables[items][0]', 'a'],
      ['merge_variables[items][1]', 'b'],
      ['color', 'false'],
      ['amount', '12.5'],
    ],
  );
});

test('multipartChunks: busboy reads the fields and the file back, quotes in names escaped', async (t) => {
  const bytes = Buffer.from('%PDF-1.4 binary \r\n--not-a-boundary\r\n \x00\xff', 'latin1');
  const { contentType, chunks } = multipartChunks(
    [
      ['to[name]', 'Zoë "Z" Line\r\nTwo'],
      ['color', 'true'],
    ],
    [{ field: 'front', filename: 'my "card".pdf', contentType: 'application/pdf', data: bytes }],
  );
  t.regex(contentType, /^multipart\/form-data; boundary=----printpost[0-9a-f]{24}$/);
  const fields: [string, string][] = [];
  const files: { field: string; filename?: string; mimeType: string; data: Buffer }[] = [];
  await new Promise<void>((resolve, reject) => {
    const parser = Busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' });
    parser.on('field', (name, value) => fields.push([name, value]));
    parser.on('file', (field, stream, info) => {
      const parts: Buffer[] = [];
      stream.on('data', (d: Buffer) => parts.push(d));
      stream.on('end', () =>
        files.push({ field, filename: info.filename, mimeType: info.mimeType, data: Buffer.concat(parts) }),
      );
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    Readable.from(chunks as Buffer[]).pipe(parser);
  });
  t.deepEqual(fields, [
    ['to[name]', 'Zoë "Z" Line\r\nTwo'],
    ['color', 'true'],
  ]);
  t.is(files.length, 1);
  t.is(files[0].field, 'front');
  t.is(files[0].filename, 'my %22card%22.pdf');
  t.is(files[0].mimeType, 'application/pdf');
  t.true(files[0].data.equals(bytes));
});
