// Requests must use HTTPS. Plain HTTP is served only from loopback (local use), and a proxy's
// X-Forwarded-Proto is believed only from addresses the operator names as trusted.
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { ApiError } from '../base/errors';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/** The peer's address; '' once Node has let go of a destroyed request's socket (typed, wrongly, as always there). */
const peerAddress = (req: IncomingMessage): string => (req.socket as Socket | null)?.remoteAddress ?? '';

/** Whether the peer is a proxy the operator trusts (IPv4 peers may appear IPv4-mapped). */
function fromTrustedProxy(req: IncomingMessage, trustedProxies: ReadonlySet<string>): boolean {
  const remote = peerAddress(req);
  return trustedProxies.has(remote) || trustedProxies.has(remote.replace(/^::ffff:/, ''));
}

export function assertSecure(req: IncomingMessage, trustedProxies: ReadonlySet<string>): void {
  if (req.socket instanceof TLSSocket) return;
  const remote = peerAddress(req);
  if (fromTrustedProxy(req, trustedProxies)) {
    const proto = String(req.headers['x-forwarded-proto'] ?? '')
      .split(',')[0]
      .trim()
      .toLowerCase();
    if (proto === 'https') return;
  } else if (LOOPBACK.test(remote)) {
    return;
  }
  throw new ApiError('unauthorized', 'All requests must use HTTPS.', 401);
}

/** The public origin of this request, for links: the operator's PUBLIC_URL, a trusted proxy's view, or the socket's. */
export function requestOrigin(req: IncomingMessage, trustedProxies: ReadonlySet<string>, publicUrl?: string): string {
  if (publicUrl) return publicUrl.replace(/\/$/, '');
  const proxied = fromTrustedProxy(req, trustedProxies);
  const first = (h: string | string[] | undefined) =>
    String(h ?? '')
      .split(',')[0]
      .trim();
  const proto =
    proxied && first(req.headers['x-forwarded-proto'])
      ? first(req.headers['x-forwarded-proto'])
      : req.socket instanceof TLSSocket
        ? 'https'
        : 'http';
  const host = (proxied && first(req.headers['x-forwarded-host'])) || req.headers.host || 'localhost';
  return `${proto}://${host}`;
}

/**
 * The client's address: the peer's, or behind a trusted proxy the nearest address its
 * X-Forwarded-For names that is not itself a trusted proxy (what rate limits per client count).
 */
export function clientAddress(req: IncomingMessage, trustedProxies: ReadonlySet<string>): string {
  const peer = peerAddress(req).replace(/^::ffff:/, '');
  if (!fromTrustedProxy(req, trustedProxies)) return peer;
  const hops = String(req.headers['x-forwarded-for'] ?? '')
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedProxies.has(hops[i])) return hops[i];
  return peer;
}
