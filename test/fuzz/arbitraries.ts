// Hostile requests generated from the catalog with fast-check: bodies built from each operation's schema,
// then broken (wrong types, deep nesting, wide objects, prototype keys, extreme numbers, unicode edge
// cases), sent as JSON, form, multipart or malformed text, with absurd queries, ids and auth headers.
import fc from 'fast-check';
import qs from 'qs';
import { Kind, type TSchema } from '@sinclair/typebox';
import { allOperations } from '../../engine/catalog';
import type { Operation } from '../../engine/catalog/types';

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** what the request is, for a failure report */
  label: string;
}

const operations = allOperations().map((o) => o.operation);

const weirdStrings = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  '\u202e\u200b\ufeff',
  '😀'.repeat(40),
  'é'.normalize('NFD'),
  '%00',
  '%',
  '%%41',
  '../../etc/passwd',
  "'; drop table objects; --",
  '__proto__',
  'constructor',
  'prototype',
  '1e309',
  '-0',
  'NaN',
  'Infinity',
  '0x10',
  '9'.repeat(400),
  'x'.repeat(70_000),
  'null',
  'true',
  '[]',
  '{}',
);
const weirdNumbers = fc.constantFrom(0, -0, -1, 1.5, 1e308, -1e308, 5e-324, 2 ** 53 + 1, -(2 ** 63), 999999.999);
const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  weirdStrings,
  weirdNumbers,
  fc.boolean(),
  fc.constant(null),
);

/** Values of any JSON shape, shallow: the mutation material. */
const anyJson = fc.oneof(
  { depthSize: 'small' },
  leaf,
  fc.array(leaf, { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), leaf, { maxKeys: 5 }),
);

/** A value the schema accepts, or nearly: strings within their lengths, enums from their members. */
function fromSchema(schema: TSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 4) return fc.constant(null);
  switch (schema[Kind]) {
    case 'String':
      return schema.enum
        ? fc.constantFrom(...(schema.enum as string[]))
        : fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 60) });
    case 'Integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'Number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
    case 'Boolean':
      return fc.boolean();
    case 'Null':
      return fc.constant(null);
    case 'Literal':
      return fc.constant(schema.const);
    case 'Array':
      return fc.array(fromSchema(schema.items as TSchema, depth + 1), { maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'Union':
      return fc.oneof(...(schema.anyOf as TSchema[]).map((s) => fromSchema(s, depth + 1)));
    case 'Record':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 10 }), fc.string({ maxLength: 20 }), { maxKeys: 4 });
    case 'Object': {
      const props = Object.fromEntries(
        Object.entries(schema.properties as Record<string, TSchema>).map(([k, s]) => [k, fromSchema(s, depth + 1)]),
      );
      return fc.record(props, { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    default:
      return anyJson;
  }
}

function nest(levels: number, inner: unknown, asArray: boolean): unknown {
  let value = inner;
  for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
  return value;
}

/** Ways to break a well-formed body. */
function broken(body: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(body);
  const key = keys.length ? fc.constantFrom(...keys) : fc.constant('name');
  return fc.oneof(
    fc.constant(body),
    fc.tuple(key, anyJson).map(([k, v]) => ({ ...body, [k]: v })),
    fc
      .tuple(key, fc.integer({ min: 10, max: 300 }), fc.boolean())
      .map(([k, n, arr]) => ({ ...body, [k]: nest(n, 1, arr) })),
    fc
      .integer({ min: 100, max: 20_000 })
      .map((n) => ({ ...body, metadata: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 'v'])) })),
    fc
      .constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty')
      .map(
        (k) =>
          JSON.parse(`{${JSON.stringify(k)}: {"polluted": true}, "metadata": {${JSON.stringify(k)}: "x"}}`) as Record<
            string,
            unknown
          >,
      ),
    fc.tuple(key, weirdNumbers).map(([k, n]) => ({ ...body, [k]: n })),
    fc.tuple(key, weirdStrings).map(([k, s]) => ({ ...body, [k]: s })),
    fc.constant({}),
  );
}

const jsonText = (value: unknown) => JSON.stringify(value) ?? 'null';

const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  '\u0000',
  '{"a":"\\ud800"}',
  '{"a":1e99999}',
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  `{"metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`,
  '{"__proto__":{"x":1}}',
  '"string"',
  '123',
  '',
);

function multipart(fields: Record<string, unknown>, shape: number): { body: Buffer; type: string } {
  const b = 'fuzzboundary';
  const part = (disposition: string, value: string, extra = '') =>
    `--${b}\r\nContent-Disposition: ${disposition}\r\n${extra}\r\n${value}\r\n`;
  const flat = qs
    .stringify(fields, { encode: false })
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('='));
  let text = flat.map(([k, v]) => part(`form-data; name="${k}"`, v ?? '')).join('');
  switch (shape % 8) {
    case 1:
      text += part('form-data', 'nameless');
      break;
    case 2:
      text += part('form-data; name="file"; filename="a.pdf"', '%PDF-1.4 junk', 'Content-Type: application/pdf\r\n');
      break;
    case 3:
      text += part('form-data; filename="x.png"', 'nameless file', 'Content-Type: image/png\r\n');
      break;
    case 4:
      text += `--${b}\r\nContent-Disposition: form-data; name="cut"\r\n\r\nno end`;
      return { body: Buffer.from(text), type: `multipart/form-data; boundary=${b}` };
    case 5:
      return { body: Buffer.from(text + `--${b}--\r\n`), type: 'multipart/form-data' };
    case 6:
      text += part('form-data; name="a"; name="b"', 'twice');
      break;
    case 7:
      text += part('garbage', 'x');
      break;
  }
  return { body: Buffer.from(`${text}--${b}--\r\n`), type: `multipart/form-data; boundary=${b}` };
}

const encoded = (body: Record<string, unknown>) =>
  fc.oneof(
    fc.constant({ type: 'application/json', text: jsonText(body) as string | Buffer }),
    fc.constant({ type: 'application/x-www-form-urlencoded', text: qs.stringify(body) as string | Buffer }),
    fc.integer({ min: 0, max: 7 }).map((shape) => {
      const m = multipart(body, shape);
      return { type: m.type, text: m.body as string | Buffer };
    }),
    malformedJson.map((text) => ({ type: 'application/json', text: text as string | Buffer })),
    fc
      .constantFrom('text/plain', 'application/xml', 'multipart/mixed; boundary=x', 'application/json; charset=utf-16')
      .map((type) => ({ type, text: jsonText(body) as string | Buffer })),
    fc.constant({
      type: 'application/x-www-form-urlencoded',
      text: `${'a['.repeat(50)}=1&${Array.from({ length: 12_000 }, (_, i) => `k${i}=1`).join('&')}` as string | Buffer,
    }),
  );

const query = fc.oneof(
  fc.constant(''),
  fc
    .dictionary(
      fc.constantFrom(
        'limit',
        'after',
        'before',
        'include',
        'date_created',
        'metadata',
        'case',
        'idempotency_key',
        'x',
      ),
      anyJson,
      { maxKeys: 4 },
    )
    .map((q) => qs.stringify(q)),
  fc.constantFrom(
    `after=${Buffer.from(JSON.stringify(['2020-01-01T00:00:00.000Z\u0000', 'x'])).toString('base64url')}`,
    `after=${Buffer.from(JSON.stringify(['2020-01-01T00:00:00.000Z', 'adr_\u0000'])).toString('base64url')}`,
    'limit=-1',
    'limit=1e9',
    'limit[]=1',
    'metadata={"a":',
    `metadata=${encodeURIComponent(`${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`)}`,
    `${'a[b]'.repeat(40)}=1`,
    'include=%00',
    'date_created[gt]=notadate',
    '%',
    '&&&==&',
    `x=${'y'.repeat(8000)}`,
  ),
);

/** Percent-encodes any string, lone surrogates included (as the UTF-8 bytes Buffer gives them). */
const percent = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const idSegment = fc
  .oneof(
    fc.string({ maxLength: 30 }),
    weirdStrings.map((s) => s.slice(0, 200)),
  )
  .map((s) => percent(s) || 'x');

/** Authorization headers; `good` is the valid one. */
const auth = (good: string) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(good) },
    fc.constantFrom(
      '',
      'Basic',
      'Basic %%%',
      'Bearer ',
      'Bearer \u00ff',
      `Basic ${Buffer.from('\u0000:').toString('base64')}`,
      `Basic ${'A'.repeat(8000)}`,
      'Digest x',
      `Bearer test_${'0'.repeat(40)}`,
    ),
  );

export function fuzzRequest(goodAuth: string): fc.Arbitrary<FuzzRequest> {
  return fc.constantFrom(...operations).chain((operation: Operation) => {
    const bodyArb = operation.body
      ? fromSchema(operation.body).chain((b) => broken(b as Record<string, unknown>))
      : fc.constant({});
    return fc
      .record({
        body: bodyArb.chain(encoded),
        query,
        id: idSegment,
        auth: auth(goodAuth),
        key: fc.option(fc.string({ maxLength: 300 })),
      })
      .map(({ body, query: q, id, auth: a, key }) => {
        const path = operation.path.replace('{id}', id);
        const headers: Record<string, string> = {};
        if (a) headers.authorization = a;
        if (key !== null && operation.idempotent) headers['idempotency-key'] = percent(key);
        const sends = operation.method === 'POST' || operation.method === 'PATCH';
        if (sends) headers['content-type'] = body.type;
        return {
          method: operation.method,
          path: q ? `${path}?${q}` : path,
          headers,
          body: sends ? body.text : undefined,
          label: `${operation.method} ${path}?${q.slice(0, 200)} [${body.type}] ${String(body.text).slice(0, 300)}`,
        };
      });
  });
}

/** Raw HTTP the engine's parser must refuse with the spec's body rather than silence or a crash. */
export const rawHttp = fc.oneof(
  fc.constantFrom(
    'GET /v1/addresses HTTP/1.1\r\n\r\n',
    'GET /v1/addresses HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n',
    'GARBAGE\r\n\r\n',
    'GET /v1/addresses HTTP/9.9\r\nHost: x\r\n\r\n',
    'GET  HTTP/1.1\r\nHost: x\r\n\r\n',
    'GET /v1/addresses HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    'POST /v1/addresses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n',
    'POST /v1/addresses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n',
    'GET /v1/addresses HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n',
    'GET /v1/addresses HTTP/1.1\r\nHost: x\r\nX: \u0001\r\n\r\n',
    `GET /v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    `GET /v1/addresses HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    'GET /v1/addresses\u0000 HTTP/1.1\r\nHost: x\r\n\r\n',
  ),
  // Blank lines alone are not a request yet (HTTP skips them while waiting for one): the headers timeout answers those.
  fc
    .string({ unit: 'binary-ascii', minLength: 1, maxLength: 200 })
    .filter((s) => s.replace(/[\r\n]/g, '') !== '')
    .map((s) => `${s}\r\n\r\n`),
);

/** Whether an answer is acceptable: below 500, and every error in the spec's body with its own status. */
export function acceptable(status: number, body: unknown): boolean {
  if (status >= 500) return false;
  if (status < 400) return true;
  const error = (body as { error?: { message?: unknown; code?: unknown; status_code?: unknown } } | undefined)?.error;
  return typeof error?.message === 'string' && typeof error.code === 'string' && error.status_code === status;
}
