// POSTs to a URL a customer gave (a webhook) behind the same guard as remote artwork: the name resolved
// here, every address checked against loopback, private and link-local ranges unless allowed, the
// connection pinned to the checked address. Redirects are not followed (a 3xx is an answer like any
// other), and only the first bytes of the answer are kept, within one time limit for the whole exchange.
import { parseNetworks } from './private-networks';
import { checkedAddress, FetchRefused, parseUrl, request } from './guarded-fetch';
import { messageOf } from '../../base/thrown';

export interface PostLimits {
  timeoutMs: number;
  allowedNetworks: ReadonlySet<string> | readonly string[];
  /** how much of the answer is kept (default 500 bytes); the rest is read and dropped */
  keepBytes?: number;
}

export interface Posted {
  status: number;
  /** the first `keepBytes` of the answer, as text */
  excerpt: string;
}

/** Sends `body`; resolves with the answer whatever its status, rejects with FetchRefused when none came. */
export async function guardedPost(
  url: string,
  body: string,
  headers: Record<string, string>,
  limits: PostLimits,
): Promise<Posted> {
  const target = parseUrl(url);
  const allowed = parseNetworks(limits.allowedNetworks);
  const keep = limits.keepBytes ?? 500;
  const controller = new AbortController();
  const timeout = new FetchRefused('timeout', `${target.href} did not answer within ${limits.timeoutMs} ms`);
  const timer = setTimeout(() => controller.abort(timeout), limits.timeoutMs);
  try {
    const address = await checkedAddress(target.hostname.replace(/^\[|\]$/g, ''), allowed, controller.signal);
    const res = await request(target, address, controller.signal, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'printpost' },
      body,
    });
    const kept: Buffer[] = [];
    let size = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (size < keep) kept.push(chunk.subarray(0, keep - size));
      size += chunk.length;
    }
    return { status: res.statusCode ?? 0, excerpt: Buffer.concat(kept).toString('utf8') };
  } catch (err) {
    if (controller.signal.aborted) throw timeout;
    if (err instanceof FetchRefused) throw err;
    throw new FetchRefused('network', `${target.href} could not be reached (${messageOf(err)})`);
  } finally {
    clearTimeout(timer);
  }
}
