// Fetches a remote URL for the engine (remote artwork) without letting a caller reach the engine's own
// networks (SSRF): the name is resolved here, every address checked, and the connection made to the checked
// address (no second lookup a rebinding DNS could answer differently). Redirects are followed by hand, each
// hop checked again; size and time are limited over the whole download.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { parseNetworks, refusedRange, type Network } from './private-networks';
import { messageOf } from '../../base/thrown';

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** CIDRs of otherwise refused networks that may be fetched from */
  allowedNetworks: ReadonlySet<string> | readonly string[];
  /** default 5 */
  maxRedirects?: number;
}

export interface Fetched {
  bytes: Buffer;
  contentType: string | undefined;
  finalUrl: string;
}

export type FetchRefusal = 'bad_url' | 'private_network' | 'too_large' | 'timeout' | 'http_status' | 'network';

export class FetchRefused extends Error {
  constructor(
    readonly reason: FetchRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'FetchRefused';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export function parseUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new FetchRefused('bad_url', `not a valid URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FetchRefused('bad_url', `only http and https URLs can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new FetchRefused('bad_url', 'a URL with credentials is not fetched');
  return url;
}

/** Rejects when the signal aborts (dns.lookup itself cannot be cancelled). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The one address to connect to: every address the name has must be allowed, not only the first. */
export async function checkedAddress(hostname: string, allowed: readonly Network[], signal: AbortSignal) {
  let addresses: LookupAddress[];
  if (isIP(hostname)) addresses = [{ address: hostname, family: isIP(hostname) }];
  else {
    const looked = new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(hostname, { all: true, verbatim: true }, (err, found) => (err ? reject(err) : resolve(found))),
    );
    try {
      addresses = await untilAborted(looked, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new FetchRefused('network', `${hostname} could not be resolved (${messageOf(err)})`);
    }
  }
  if (addresses.length === 0) throw new FetchRefused('network', `${hostname} has no address`);
  for (const { address } of addresses) {
    const range = refusedRange(address, allowed);
    if (range)
      throw new FetchRefused('private_network', `${hostname} resolves to ${address} (${range}), which is not fetched`);
  }
  return addresses[0];
}

/** What a request sends besides its URL: a GET of artwork by default. */
export interface Outgoing {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | Buffer;
}

const ARTWORK_GET: Outgoing = {
  method: 'GET',
  headers: { accept: 'application/pdf, image/png, image/jpeg, */*;q=0.5', 'user-agent': 'printpost' },
};

/** One request to the checked address only (the connection is pinned to it). */
export function request(
  url: URL,
  target: LookupAddress,
  signal: AbortSignal,
  outgoing: Outgoing = ARTWORK_GET,
): Promise<IncomingMessage> {
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  // net.connect asks with `all: true` when it races address families (autoSelectFamily)
  const lookup = ((_name, options, callback) => {
    if (options.all) callback(null, [target]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
  const options: https.RequestOptions = {
    protocol: url.protocol,
    hostname,
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: outgoing.method,
    headers: outgoing.headers,
    lookup,
    agent: false,
    signal,
    ...(url.protocol === 'https:' && !isIP(hostname) ? { servername: hostname } : {}),
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(options, resolve);
    req.on('error', reject);
    req.end(outgoing.body);
  });
}

async function readBody(res: IncomingMessage, maxBytes: number, url: URL): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw new FetchRefused('too_large', `${url.href} is ${declared} bytes, more than ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw new FetchRefused('too_large', `${url.href} is more than ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

async function follow(start: URL, limits: FetchLimits, allowed: readonly Network[], signal: AbortSignal) {
  const maxRedirects = limits.maxRedirects ?? 5;
  let url = start;
  for (let hop = 0; ; hop++) {
    const target = await checkedAddress(url.hostname.replace(/^\[|\]$/g, ''), allowed, signal);
    let res: IncomingMessage;
    try {
      res = await request(url, target, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      throw new FetchRefused('network', `${url.href} could not be fetched (${messageOf(err)})`);
    }
    const status = res.statusCode ?? 0;
    if (REDIRECTS.has(status) && res.headers.location) {
      res.destroy();
      if (hop >= maxRedirects)
        throw new FetchRefused('http_status', `${start.href} redirects more than ${maxRedirects} times`);
      url = parseUrl(res.headers.location, url);
      continue;
    }
    if (status < 200 || status > 299) {
      res.destroy();
      throw new FetchRefused('http_status', `${url.href} answered HTTP ${status}`);
    }
    try {
      const bytes = await readBody(res, limits.maxBytes, url);
      return { bytes, contentType: res.headers['content-type'], finalUrl: url.href };
    } catch (err) {
      if (err instanceof FetchRefused || signal.aborted) throw err;
      throw new FetchRefused('network', `${url.href} broke off (${messageOf(err)})`);
    }
  }
}

/** GETs `url` under the limits; refusals are FetchRefused with a reason. */
export async function guardedFetch(url: string, limits: FetchLimits): Promise<Fetched> {
  const start = parseUrl(url);
  const allowed = parseNetworks(limits.allowedNetworks);
  const controller = new AbortController();
  const timeout = new FetchRefused('timeout', `${start.href} was not downloaded within ${limits.timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timeout), limits.timeoutMs);
  try {
    return await follow(start, limits, allowed, controller.signal);
  } catch (err) {
    if (controller.signal.aborted) throw timeout;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
