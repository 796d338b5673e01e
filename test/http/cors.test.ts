// CORS is the API's: /v1 answers pages of other origins (publishable keys are meant for browsers),
// while GET /metrics, the MCP endpoint and the dashboard carry no CORS header and their preflight
// grants nothing.
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';

const ORIGIN = 'https://elsewhere.example';
const TOKEN = 'scrape-me';

let engine: TestEngine;
test.before(async () => {
  engine = await startEngine({ env: { METRICS_TOKEN: TOKEN } });
});
test.after.always(() => engine?.close());

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

const preflight = (path: string, method: string) =>
  fetch(`${engine.url}${path}`, {
    method: 'OPTIONS',
    headers: {
      origin: ORIGIN,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type',
    },
  });

test('GET /metrics carries no CORS header and its preflight grants nothing', async (t) => {
  const scrape = await fetch(`${engine.url}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}`, origin: ORIGIN },
  });
  t.is(scrape.status, 200);
  t.deepEqual(corsHeaders(scrape.headers), []);
  const refused = await fetch(`${engine.url}/metrics`, { headers: { origin: ORIGIN } });
  t.is(refused.status, 401);
  t.deepEqual(corsHeaders(refused.headers), []);
  const pre = await preflight('/metrics', 'GET');
  t.not(pre.status, 204);
  t.deepEqual(corsHeaders(pre.headers), []);
});

test('/mcp carries no CORS header and its preflight grants nothing', async (t) => {
  const post = await fetch(`${engine.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${engine.keys.test}`,
      origin: 'http://localhost',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'cors-test', version: '1' } },
    }),
  });
  t.is(post.status, 200, await post.clone().text());
  t.deepEqual(corsHeaders(post.headers), []);
  for (const method of ['POST', 'GET']) {
    const pre = await preflight('/mcp', method);
    t.not(pre.status, 204, method);
    t.deepEqual(corsHeaders(pre.headers), [], method);
  }
});

test('the dashboard carries no CORS header', async (t) => {
  for (const path of ['/dashboard/sign-in', '/dashboard/settings']) {
    const page = await fetch(`${engine.url}${path}`, { headers: { origin: ORIGIN }, redirect: 'manual' });
    t.deepEqual(corsHeaders(page.headers), [], path);
    t.deepEqual(corsHeaders((await preflight(path, 'POST')).headers), [], `${path} preflight`);
  }
});

test('the /v1 API keeps its CORS', async (t) => {
  const listed = await fetch(`${engine.url}/v1/addresses`, {
    headers: { authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`, origin: ORIGIN },
  });
  t.is(listed.status, 200);
  t.is(listed.headers.get('access-control-allow-origin'), '*');
  const pre = await preflight('/v1/addresses', 'POST');
  t.is(pre.status, 204);
  t.is(pre.headers.get('access-control-allow-origin'), '*');
  t.regex(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
});
