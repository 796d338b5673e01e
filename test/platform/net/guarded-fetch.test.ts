// The SSRF guard against real local servers: loopback is refused unless allowed, a redirect is checked
// again, sizes and time are limited while streaming.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { FetchRefused, guardedFetch, type FetchLimits } from '../../../engine/platform/net/guarded-fetch';
import { refusedRange, parseNetworks } from '../../../engine/platform/net/private-networks';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

async function serve(handler: Handler, host = '127.0.0.1'): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const LIMITS: FetchLimits = { maxBytes: 1000, timeoutMs: 5000, allowedNetworks: [] };
const LOOPBACK: FetchLimits = { ...LIMITS, allowedNetworks: new Set(['127.0.0.0/8']) };

const hello: Handler = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/pdf' });
  res.end('%PDF-hello');
};

async function refusal(t: { fail(m: string): void }, promise: Promise<unknown>): Promise<FetchRefused | undefined> {
  try {
    await promise;
    t.fail('expected a refusal');
  } catch (err) {
    if (err instanceof FetchRefused) return err;
    throw err;
  }
  return undefined;
}

test('loopback is refused by default and fetched when 127.0.0.0/8 is allowed', async (t) => {
  const server = await serve(hello);
  try {
    t.is((await refusal(t, guardedFetch(`${server.origin}/a.pdf`, LIMITS)))?.reason, 'private_network');
    const got = await guardedFetch(`${server.origin}/a.pdf`, LOOPBACK);
    t.is(got.bytes.toString(), '%PDF-hello');
    t.is(got.contentType, 'application/pdf');
    t.is(got.finalUrl, `${server.origin}/a.pdf`);
  } finally {
    await server.close();
  }
});

test('a name resolving to loopback (localhost) is refused; allowed, it connects to the checked address', async (t) => {
  let host: string | undefined;
  const server = await serve((req, res) => {
    host = req.headers.host;
    hello(req, res);
  });
  const url = server.origin.replace('127.0.0.1', 'localhost');
  try {
    t.is((await refusal(t, guardedFetch(url, LIMITS)))?.reason, 'private_network');
    t.is((await guardedFetch(url, LOOPBACK)).bytes.toString(), '%PDF-hello');
    t.true(host?.startsWith('localhost:'), 'the Host header keeps the name');
  } finally {
    await server.close();
  }
});

test('IPv6 loopback ::1 is refused unless ::1/128 is allowed', async (t) => {
  const server = await serve(hello, '::1');
  try {
    t.is((await refusal(t, guardedFetch(server.origin, LIMITS)))?.reason, 'private_network');
    t.is((await refusal(t, guardedFetch(server.origin, LOOPBACK)))?.reason, 'private_network', 'v4 allowance only');
    const got = await guardedFetch(server.origin, { ...LIMITS, allowedNetworks: ['::1/128'] });
    t.is(got.bytes.toString(), '%PDF-hello');
  } finally {
    await server.close();
  }
});

test('redirects within allowed networks are followed, at most 5', async (t) => {
  const server = await serve((req, res) => {
    if (req.url === '/ok') return hello(req, res);
    res.writeHead(302, { location: req.url === '/loop' ? '/loop' : '/ok' });
    res.end();
  });
  try {
    t.is((await guardedFetch(`${server.origin}/start`, LOOPBACK)).finalUrl, `${server.origin}/ok`);
    const loop = await refusal(t, guardedFetch(`${server.origin}/loop`, LOOPBACK));
    t.is(loop?.reason, 'http_status');
    t.regex(loop?.message ?? '', /more than 5/);
  } finally {
    await server.close();
  }
});

test('a redirect from an allowed address to another, refused, address is refused', async (t) => {
  const target = await serve(hello);
  const targetPort = new URL(target.origin).port;
  const redirector = await serve((_req, res) => {
    // 127.0.0.2 is loopback too, but outside the one allowed host
    res.writeHead(301, { location: `http://127.0.0.2:${targetPort}/x.pdf` });
    res.end();
  });
  try {
    const refused = await refusal(t, guardedFetch(redirector.origin, { ...LIMITS, allowedNetworks: ['127.0.0.1/32'] }));
    t.is(refused?.reason, 'private_network');
    t.regex(refused?.message ?? '', /127\.0\.0\.2/);
  } finally {
    await redirector.close();
    await target.close();
  }
});

test('too large: refused by Content-Length, and while streaming a chunked body', async (t) => {
  let streamed = 0;
  const server = await serve((req, res) => {
    if (req.url === '/declared') {
      res.writeHead(200, { 'content-length': '5000' });
      return res.end(Buffer.alloc(5000));
    }
    res.writeHead(200); // no length: chunked
    const timer = setInterval(() => {
      if (res.destroyed || streamed > 1_000_000) return clearInterval(timer);
      streamed += 400;
      res.write(Buffer.alloc(400));
    }, 5);
  });
  try {
    const declared = await refusal(t, guardedFetch(`${server.origin}/declared`, LOOPBACK));
    t.is(declared?.reason, 'too_large');
    t.regex(declared?.message ?? '', /5000 bytes/);
    const chunked = await refusal(t, guardedFetch(`${server.origin}/chunked`, LOOPBACK));
    t.is(chunked?.reason, 'too_large');
    t.true(streamed < 100_000, 'the download stopped early');
  } finally {
    await server.close();
  }
});

test('a slow server times out over the whole download', async (t) => {
  const server = await serve((_req, res) => {
    res.writeHead(200);
    res.write('%PDF-'); // headers and a little, then nothing
  });
  const hops = await serve((req, res) => {
    const n = Number(req.url?.slice(1));
    setTimeout(() => {
      res.writeHead(302, { location: `/${n + 1}` });
      res.end();
    }, 120);
  });
  try {
    const chain = await refusal(t, guardedFetch(`${hops.origin}/0`, { ...LOOPBACK, timeoutMs: 300 }));
    t.is(chain?.reason, 'timeout', 'the limit spans redirects: each hop is quick, together they are not');
    const slow = await refusal(t, guardedFetch(server.origin, { ...LOOPBACK, timeoutMs: 300 }));
    t.is(slow?.reason, 'timeout');
  } finally {
    await hops.close();
    await server.close();
  }
});

test('404 is http_status; a closed port is network; other schemes and bad URLs are bad_url', async (t) => {
  const server = await serve((_req, res) => {
    res.writeHead(404);
    res.end('no');
  });
  try {
    t.is((await refusal(t, guardedFetch(server.origin, LOOPBACK)))?.reason, 'http_status');
  } finally {
    await server.close();
  }
  t.is((await refusal(t, guardedFetch(server.origin, LOOPBACK)))?.reason, 'network', 'nothing listens now');
  for (const url of ['file:///etc/passwd', 'ftp://example.com/a.pdf', 'not a url', 'http://u:p@example.com/'])
    t.is((await refusal(t, guardedFetch(url, LIMITS)))?.reason, 'bad_url', url);
});

test('address ranges: private, CGNAT, link-local, mapped and NAT64 forms are refused; public is not', (t) => {
  for (const address of [
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '255.255.255.255',
    '224.0.0.1',
    '::',
    '::1',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::127.0.0.1',
    '64:ff9b::a00:1',
  ])
    t.truthy(refusedRange(address, []), address);
  for (const address of ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:93.184.215.14'])
    t.is(refusedRange(address, []), undefined, address);
  const allowed = parseNetworks(['10.0.0.0/8', '::ffff:192.168.0.0/112', 'fd00::1']);
  t.is(refusedRange('10.9.9.9', allowed), undefined);
  t.is(refusedRange('::ffff:10.9.9.9', allowed), undefined, 'mapped addresses match IPv4 networks');
  t.is(refusedRange('192.168.3.4', allowed), undefined, 'mapped CIDRs count as IPv4');
  t.is(refusedRange('fd00::1', allowed), undefined);
  t.truthy(refusedRange('fd00::2', allowed));
  t.throws(() => parseNetworks(['10.0.0.0/33']));
});
