// The HTTP core every resource shares: auth, errors, bodies, versions, rate limits.
import http from 'node:http';
import { databaseSuite } from '../helpers/suite';
import { client } from '../helpers/http';

const { test, serial } = databaseSuite();
const US = {
  name: 'Ada',
  address_line1: '1 Main St',
  address_city: 'Springfield',
  address_state: 'IL',
  address_zip: '62701',
};

test('authentication failures are 401 with the spec body', async (t, { engine }) => {
  const anonymous = client(engine.url);
  const none = await anonymous('GET', '/v1/addresses');
  t.is(none.status, 401);
  t.is(none.body.error.code, 'unauthorized');
  t.is(none.body.error.status_code, 401);
  for (const key of [
    'nonsense',
    'test_00000000000000000000000000000000',
    `${engine.keys.test}x`,
    engine.keys.test.replace('test_', 'live_'),
  ]) {
    const r = await anonymous('GET', '/v1/addresses', { key });
    t.is(r.status, 401, key);
    t.is(r.body.error.code, 'invalid_api_key');
  }
  const bearer = await fetch(`${engine.url}/v1/addresses`, {
    headers: { authorization: `Bearer ${engine.keys.test}` },
  });
  t.is(bearer.status, 200);
  const garbage = await fetch(`${engine.url}/v1/addresses`, { headers: { authorization: 'Basic !!!not-base64' } });
  t.is(garbage.status, 401);
});

test('publishable keys may not call address operations: 403 publishable_key_not_allowed', async (t, {
  api,
  engine,
}) => {
  for (const [method, path] of [
    ['GET', '/v1/addresses'],
    ['POST', '/v1/addresses'],
    ['GET', '/v1/addresses/adr_x'],
    ['DELETE', '/v1/addresses/adr_x'],
  ]) {
    const r = await api(method, path, { key: engine.keys.testPub, json: method === 'POST' ? US : undefined });
    t.is(r.status, 403);
    t.is(r.body.error.code, 'publishable_key_not_allowed');
  }
});

test('unknown routes: 404 unrecognized_endpoint', async (t, { api }) => {
  for (const [method, path] of [
    ['GET', '/v1/nothing'],
    ['GET', '/v2/addresses'],
    ['POST', '/v1/addresses/adr_1/more'],
  ]) {
    const r = await api(method, path);
    t.is(r.status, 404, `${method} ${path}`);
    t.is(r.body.error.code, 'unrecognized_endpoint');
  }
});

test('a known path asked with a method it does not serve: 405 in the spec body, with Allow', async (t, { engine }) => {
  const cases: [string, string, string][] = [
    ['PATCH', '/v1/addresses', 'HEAD, GET, POST'],
    ['POST', '/v1/addresses/adr_1', 'HEAD, GET, DELETE'],
    ['PUT', '/v1/postcards/psc_1', 'HEAD, GET, DELETE'],
    ['DELETE', '/v1/openapi.json', 'HEAD, GET'],
  ];
  for (const [method, path, allow] of cases) {
    const r = await fetch(`${engine.url}${path}`, {
      method,
      headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
    });
    t.is(r.status, 405, `${method} ${path}`);
    const methods = (list: string | null) => (list ?? '').split(', ').sort().join(', ');
    t.is(methods(r.headers.get('allow')), methods(allow), `${method} ${path}`);
    const body = (await r.json()) as { error: { code: string; status_code: number; message: string } };
    t.like(body.error, { code: 'method_not_allowed', status_code: 405 }, `${method} ${path}`);
  }
  // methods fetch will not send, and WebDAV's: 405 too, never a 5xx
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PURGE', 'LINK', 'SEARCH']) {
    const answer = await rawRequest(engine.url, method, '/v1/addresses');
    t.is(answer.status, 405, method);
    t.is(answer.allow, 'HEAD, GET, POST', method);
    t.like(JSON.parse(answer.body).error, { code: 'method_not_allowed', status_code: 405 }, method);
  }
  t.is((await rawRequest(engine.url, 'PROPFIND', '/v1/nothing')).status, 404);
  const head = await fetch(`${engine.url}/v1/addresses`, {
    method: 'HEAD',
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
  });
  t.is(head.status, 200, 'HEAD is answered wherever GET is');
  t.is(await head.text(), '');
});

test('literal paths win over parameterized ones', async (t, { api }) => {
  // /v1/bulk/us_verifications and /v1/us_verifications/{id}-like shapes must not shadow each other
  const bulk = await api('POST', '/v1/bulk/us_verifications', {
    json: { addresses: [{ primary_line: 'deliverable', zip_code: '94107' }] },
  });
  t.is(bulk.status, 200, JSON.stringify(bulk.body));
  t.true(Array.isArray(bulk.body.addresses));
});

test('malformed JSON is 422, never 500', async (t, { engine }) => {
  for (const body of ['{"name": ', '[1,2]', '"text"', 'null']) {
    const r = await fetch(`${engine.url}/v1/addresses`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`,
      },
    });
    t.is(r.status, 422, body);
    t.is(((await r.json()) as { error: { code: string } }).error.code, 'invalid');
  }
});

test('malformed form and multipart bodies are 4xx, never 500', async (t, { api, engine }) => {
  const weird = await api('POST', '/v1/addresses', { form: 'name=%E0%A4%A&address_line1[[=1&&&=' });
  t.true(weird.status >= 400 && weird.status < 500);
  const broken = await fetch(`${engine.url}/v1/addresses`, {
    method: 'POST',
    body: '--abc\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n--ab',
    headers: {
      'content-type': 'multipart/form-data; boundary=abc',
      authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`,
    },
  });
  t.true(broken.status >= 400 && broken.status < 500);
  const noBoundary = await api('POST', '/v1/addresses', {
    headers: { 'content-type': 'multipart/form-data' },
    form: 'x',
  });
  t.true(noBoundary.status >= 400 && noBoundary.status < 500);
});

test('unsupported content types are 422 with the error body', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', { headers: { 'content-type': 'text/xml' }, form: '<a/>' });
  t.is(r.status, 422);
  t.is(r.body.error.status_code, 422);
  t.regex(r.body.error.message, /Content-Type must be/);
});

test('oversize bodies are refused with 413 and a clear message', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', { json: { ...US, description: 'x'.repeat(1_200_000) } });
  t.is(r.status, 413);
  t.is(r.body.error.code, 'invalid');
  t.is(r.body.error.status_code, 413);
  t.regex(r.body.error.message, /at most 1024 KB/);
});

test('Service-Version: format checked, older than the account is 422 unsupported_service_version', async (t, {
  api,
}) => {
  t.is((await api('GET', '/v1/addresses', { headers: { 'Service-Version': '2024-01-01' } })).status, 200);
  t.is((await api('GET', '/v1/addresses', { headers: { 'Service-Version': '2020-02-11' } })).status, 200);
  const old = await api('GET', '/v1/addresses', { headers: { 'Service-Version': '2019-01-01' } });
  t.is(old.status, 422);
  t.is(old.body.error.code, 'unsupported_service_version');
  for (const bad of ['2024-1-1', 'latest', '2024-13-45']) {
    const r = await api('GET', '/v1/addresses', { headers: { 'Service-Version': bad } });
    t.is(r.status, 422, bad);
  }
});

serial(
  'rate limits: both header families, 429 with the spec message, per key and endpoint, configurable',
  async (t, { engine }) => {
    const name = `rate-${Date.now()}`;
    const keys = await engine.createAccount(name);
    await engine.setSetting('rate_limit_per_5s', 5, name);
    const api = client(engine.url, keys.test);
    // The first request of a key and endpoint always opens its window.
    const first = await api('GET', '/v1/addresses');
    t.is(first.headers.get('x-rate-limit-limit'), '5');
    t.is(first.headers.get('x-rate-limit-remaining'), '4');
    t.is(first.headers.get('ratelimit-limit'), '5');
    t.is(first.headers.get('ratelimit-remaining'), '4');
    t.true(Number(first.headers.get('x-rate-limit-reset')) * 1000 > Date.now() - 1000);
    // Even if a window turns over midway, at most 10 of 12 quick requests fit in two windows.
    let limited;
    for (let i = 0; i < 11 && !limited; i++) {
      const r = await api('GET', '/v1/addresses');
      if (r.status === 429) limited = r;
    }
    t.truthy(limited);
    t.deepEqual(limited!.body, {
      error: {
        message: 'Rate limit exceeded. Please wait 5 seconds and try your request again.',
        code: 'rate_limit_exceeded',
        status_code: 429,
      },
    });
    t.is(limited!.headers.get('x-rate-limit-remaining'), '0');
    t.is(limited!.headers.get('ratelimit-remaining'), '0');
    t.is(limited!.headers.get('retry-after'), '5');
    t.is((await api('GET', '/v1/addresses/adr_other')).status, 404, 'another endpoint has its own budget');
    t.is((await api('GET', '/v1/addresses', { key: keys.testPub })).status, 403, 'another key has its own budget');
  },
);

test('CORS preflight for browser use of publishable keys', async (t, { engine }) => {
  const r = await fetch(`${engine.url}/v1/addresses`, { method: 'OPTIONS' });
  t.is(r.status, 204);
  t.is(r.headers.get('access-control-allow-origin'), '*');
  t.regex(r.headers.get('access-control-allow-headers') ?? '', /Authorization/);
});

test('an id that is not valid percent-encoding is a 404, never a 500', async (t, { api }) => {
  for (const path of ['/v1/addresses/%E0', '/v1/addresses/%', '/v1/addresses/%ZZ']) {
    const r = await api('GET', path);
    t.is(r.status, 404, path);
    t.is(r.body.error.code, 'not_found');
  }
});

test('file uploads are refused where the operation takes no file', async (t, { engine }) => {
  const fd = new FormData();
  fd.append('name', 'Ada');
  fd.append('address_line1', '1 Main St');
  fd.append('front', new Blob([Buffer.from('%PDF-1.4')], { type: 'application/pdf' }), 'front.pdf');
  const r = await fetch(`${engine.url}/v1/addresses`, {
    method: 'POST',
    body: fd,
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}` },
  });
  t.is(r.status, 422);
  t.regex(((await r.json()) as { error: { message: string } }).error.message, /does not accept file uploads/);
});

test('an oversize body sent without Content-Length (chunked) still gets a 413 body', async (t, { engine }) => {
  const chunk = Buffer.alloc(64 * 1024, 'a');
  const stream = new ReadableStream({
    start(controller) {
      for (let i = 0; i < 20; i++) controller.enqueue(chunk);
      controller.close();
    },
  });
  const r = await fetch(`${engine.url}/v1/addresses`, {
    method: 'POST',
    body: stream,
    duplex: 'half',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`,
    },
  } as RequestInit);
  t.is(r.status, 413);
  t.is(((await r.json()) as { error: { status_code: number } }).error.status_code, 413);
});

test('NUL characters are refused with 422 on both databases, in bodies, keys and ids', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses', {
    json: {
      name: 'A\u0000B',
      address_line1: '1 Main St',
      address_city: 'Springfield',
      address_state: 'IL',
      address_zip: '62701',
    },
  });
  t.is(r.status, 422);
  t.regex(r.body.error.message, /name must not contain NUL/);
  const meta = await api('POST', '/v1/addresses', {
    json: {
      name: 'A',
      address_line1: '1 Main St',
      address_city: 'Springfield',
      address_state: 'IL',
      address_zip: '62701',
      metadata: { k: 'v\u0000' },
    },
  });
  t.is(meta.status, 422);
  t.is((await api('GET', '/v1/addresses/%00')).status, 404);
  t.is((await api('GET', '/v1/addresses?metadata[k]=%00')).status, 422);
});

test('a NUL idempotency key from the query is refused, not a 500', async (t, { api }) => {
  const r = await api('POST', '/v1/addresses?idempotency_key=%00', {
    json: {
      name: 'A',
      address_line1: '1 Main St',
      address_city: 'Springfield',
      address_state: 'IL',
      address_zip: '62701',
    },
  });
  t.is(r.status, 422);
});

test('a request line and headers past 16 KB get a 431 with the spec body', async (t, { api }) => {
  const r = await api('GET', `/v1/addresses?metadata[k]=${'x'.repeat(20_000)}`);
  t.is(r.status, 431);
  t.is(r.body.error.status_code, 431);
  t.regex(r.body.error.message, /16 KB/);
});

/** A request as node:http sends it, for methods fetch refuses to send. */
function rawRequest(
  base: string,
  method: string,
  path: string,
): Promise<{ status: number; allow?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}${path}`, { method }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
    });
    request.on('error', reject);
    request.end();
  });
}
