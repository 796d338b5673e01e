// Hostile requests, one rule each: Node's parser-level errors, slow clients, multipart in broken shapes,
// deep and wide input, prototype keys, forged cursors, oversize bodies from a client that keeps writing.
import net from 'node:net';
import { databaseSuite } from '../helpers/suite';
import { sendRaw } from '../fuzz/send';
import { acceptable } from '../fuzz/arbitraries';

const { test } = databaseSuite({ env: { HEADERS_TIMEOUT_MS: '1500', REQUEST_TIMEOUT_MS: '3000' } });

const ADDRESS = {
  name: 'Ada',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
const basic = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

const rawCases: [string, string, number][] = [
  ['no Host header', 'GET /v1/addresses HTTP/1.1\r\n\r\n', 400],
  ['an Expect header other than 100-continue', 'GET /v1/addresses HTTP/1.1\r\nHost: x\r\nExpect: bogus\r\n\r\n', 417],
  ['a broken request line', 'NOT HTTP AT ALL\r\n\r\n', 400],
  [
    'two Content-Length headers',
    'POST /v1/addresses HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    400,
  ],
  ['a bad chunk size', 'POST /v1/addresses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n', 400],
  ['headers past 16 KB', `GET /v1/addresses HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, 431],
];
for (const [name, text, status] of rawCases) {
  test(`parser-level error, ${name}: ${status} with the spec's error body`, async (t, { engine }) => {
    const answer = await sendRaw(engine.url, text);
    t.is(answer.status, status, answer.failure);
    t.true(acceptable(answer.status, answer.body), JSON.stringify(answer.body));
  });
}

/**
 * Opens a connection, writes `head`, then one piece every `everyMs`; resolves with what came back and
 * how many pieces the client still had to send when the engine closed the connection.
 */
function trickle(
  url: string,
  head: string,
  pieces: string[],
  everyMs: number,
): Promise<{ text: string; unsent: number }> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    const timer = setInterval(
      () => (pieces.length && !socket.destroyed ? socket.write(pieces.shift()!) : clearInterval(timer)),
      everyMs,
    );
    socket.on('data', (d: Buffer) => (text += d.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ text, unsent: pieces.length });
    });
  });
}

test('headers trickled a line at a time get a 408 in the spec body once HEADERS_TIMEOUT_MS has passed', async (t, {
  engine,
}) => {
  const { text, unsent } = await trickle(
    engine.url,
    'GET /v1/addresses HTTP/1.1\r\n',
    Array.from({ length: 30 }, (_, i) => `X-${i}: y\r\n`),
    400,
  );
  t.regex(text, /^HTTP\/1\.1 408 /);
  t.regex(text, /"code":"request_timeout","status_code":408/);
  t.true(unsent > 0, 'cut off while the client was still sending its headers');
});

test('a body trickled a byte at a time gets a 408 in the spec body once REQUEST_TIMEOUT_MS has passed', async (t, {
  engine,
}) => {
  const head = `POST /v1/addresses HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(engine.keys.test)}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n`;
  const { text, unsent } = await trickle(engine.url, head, '{"name":"slowly"'.split(''), 400);
  t.regex(text, /^HTTP\/1\.1 408 /);
  t.regex(text, /"status_code":408/);
  t.true(unsent > 0, 'cut off while the client was still sending its body');
});

const multipartCases: [string, string, string, number][] = [
  ['a part without a name', 'b', '--b\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--b--\r\n', 422],
  [
    'a file part without a name',
    'b',
    '--b\r\nContent-Disposition: form-data; filename="a.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF\r\n--b--\r\n',
    422,
  ],
  ['no boundary', '', '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nv\r\n--b--\r\n', 422],
  ['a body cut short', 'b', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda', 422],
  [
    'a file to an operation without file fields',
    'b',
    '--b\r\nContent-Disposition: form-data; name="name"; filename="x.png"\r\n\r\npng\r\n--b--\r\n',
    422,
  ],
  [
    'more parts than allowed',
    'b',
    `${'--b\r\nContent-Disposition: form-data; name="m"\r\n\r\nv\r\n'.repeat(1100)}--b--\r\n`,
    413,
  ],
];
for (const [name, boundary, payload, status] of multipartCases) {
  test(`multipart with ${name}: ${status}, and the engine keeps serving`, async (t, { api }) => {
    const type = boundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data';
    const reply = await api('POST', '/v1/addresses', { form: payload, headers: { 'content-type': type } });
    t.is(reply.status, status, JSON.stringify(reply.body));
    t.true(acceptable(reply.status, reply.body));
    t.is((await api('GET', '/v1/addresses?limit=1')).status, 200);
  });
}

test('multipart fields are a form: a valid address created from multipart', async (t, { api }) => {
  const parts = Object.entries(ADDRESS).map(
    ([k, v]) => `--b\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  const reply = await api('POST', '/v1/addresses', {
    form: `${parts.join('')}--b--\r\n`,
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
  });
  t.is(reply.status, 200, JSON.stringify(reply.body));
  t.is(reply.body.address_line1, '185 BERRY ST');
});

test('JSON nested 100,000 levels deep inside a field: 422, not a stack overflow', async (t, { api }) => {
  const deep = `{"metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_001)}`;
  const reply = await api('POST', '/v1/addresses', { form: deep, headers: { 'content-type': 'application/json' } });
  t.is(reply.status, 422);
  t.regex(reply.body.error.message, /nested too deeply/);
});

test('form nested past the depth limit: 422; more values than allowed: 413', async (t, { api }) => {
  const deep = await api('POST', '/v1/addresses', { form: `metadata${'[a]'.repeat(40)}=1` });
  t.is(deep.status, 422);
  const wide = await api('POST', '/v1/addresses', {
    form: Array.from({ length: 12_000 }, (_, i) => `k${i}=1`).join('&'),
  });
  t.is(wide.status, 413);
  t.true(acceptable(wide.status, wide.body));
});

test('a JSON object with more values than allowed: 413', async (t, { api }) => {
  const metadata = Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, 'v']));
  const reply = await api('POST', '/v1/addresses', { json: { ...ADDRESS, metadata } });
  t.is(reply.status, 413);
});

test('prototype keys are refused at any depth and pollute nothing', async (t, { api }) => {
  for (const text of [
    '{"__proto__":{"polluted":true}}',
    '{"metadata":{"__proto__":"x"}}',
    '{"to":{"__proto__":{"polluted":true}}}',
  ]) {
    const reply = await api('POST', '/v1/addresses', { form: text, headers: { 'content-type': 'application/json' } });
    t.is(reply.status, 422, text);
    t.regex(reply.body.error.message, /__proto__/);
  }
  const constructorKey = await api('POST', '/v1/addresses', {
    json: { ...ADDRESS, metadata: { constructor: 'plain data' } },
  });
  t.is(constructorKey.status, 200, 'constructor is plain data');
  t.deepEqual(constructorKey.body.metadata, { constructor: 'plain data' });
  t.is(({} as Record<string, unknown>).polluted, undefined);
});

test('a forged cursor carrying NUL (or anything we never issued) is 422, not a database error', async (t, { api }) => {
  for (const forged of [
    ['2020-01-01T00:00:00.000Z\u0000', 'adr_1'],
    ['2020-01-01T00:00:00.000Z', 'adr_\u0000'],
    ['yesterday', 'adr_1'],
    ['2020-01-01T00:00:00.000Z', 'x'.repeat(500)],
  ]) {
    const cursor = Buffer.from(JSON.stringify(forged)).toString('base64url');
    const reply = await api('GET', `/v1/addresses?after=${cursor}`);
    t.is(reply.status, 422, JSON.stringify(forged));
  }
});

test('a NUL in a query parameter or a key is 422', async (t, { api }) => {
  t.is((await api('GET', '/v1/addresses?metadata[a]=%00')).status, 422);
  t.is((await api('GET', '/v1/addresses?metadata[%00]=a')).status, 422);
});

test('a 5 MiB form body from a client that keeps writing still reads its 413', async (t, { engine }) => {
  const size = 5 * 1_048_576;
  const head = `POST /v1/addresses HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic(engine.keys.test)}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${size}\r\n\r\n`;
  const answer = await sendRaw(engine.url, head + `a=${'x'.repeat(size - 2)}`, 10_000);
  t.is(answer.status, 413, answer.failure);
  t.true(acceptable(answer.status, answer.body));
});
