// How a webhook delivery is signed, for both ends of the wire: the engine signs (domain/events) and
// the packs' triggers check (n8n's trigger, Zapier's REST hooks). Written once so the two cannot drift.
//
// `Service-Signature-Timestamp` is Unix seconds, `Service-Signature` the hex HMAC-SHA256 of
// `timestamp + "." + raw body` keyed with the webhook's secret (docs/compat-notes.md, "Events and
// webhooks"). A receiver recomputes it and refuses a timestamp more than 5 minutes away from now, so a
// captured delivery cannot be replayed later. While a rotation overlaps, `Service-Signature` still
// carries the old secret's signature (a receiver that knows only the old secret, and compares the header
// whole, keeps working) and `Service-Signature-New` the new secret's; after the overlap,
// `Service-Signature` alone, with the new. One header holding a list (as Stripe's does) would fail every
// receiver that compares it whole.
//
// Imports nothing of ours (node:crypto only): it is bundled into the packs as it is.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const TIMESTAMP_HEADER = 'Service-Signature-Timestamp';
/** The new secret's signature, while the old one still signs (`Service-Signature`). */
export const NEW_SIGNATURE_HEADER = 'Service-Signature-New';
/** How far from now a signed timestamp may be when it is checked, in seconds. */
export const SIGNATURE_TOLERANCE_S = 300;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

/** The hex signature of `body` (as sent, string or bytes) at `timestamp` with `secret`. */
export function signature(secret: string, timestamp: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The secrets a webhook signs with: its own, and the one it replaced until that one expires (epoch ms). */
export interface SigningSecrets {
  secret: string;
  previous?: { secret: string; until: number };
}

/** The headers of one delivery of `body`, signed now (with both secrets while a rotation overlaps). */
export function signedHeaders(secrets: SigningSecrets, body: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  const { secret, previous } = secrets;
  const overlap = previous !== undefined && now < previous.until;
  return {
    'content-type': 'application/json',
    [TIMESTAMP_HEADER.toLowerCase()]: timestamp,
    [SIGNATURE_HEADER.toLowerCase()]: signature(overlap ? previous.secret : secret, timestamp, body),
    ...(overlap && { [NEW_SIGNATURE_HEADER.toLowerCase()]: signature(secret, timestamp, body) }),
  };
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * A header's value by name in any case; Zapier hands a hook's headers over as `Http-Service-Signature`,
 * n8n as Node's lower-case names (a repeated header as an array: its first value).
 */
export function headerValue(headers: Readonly<Record<string, unknown>> | undefined, name: string): string | undefined {
  const wanted = new Set([name.toLowerCase(), `http-${name.toLowerCase()}`]);
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (!wanted.has(key.toLowerCase())) continue;
    const first: unknown = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') return first;
  }
  return undefined;
}

function matches(secret: string, body: string | Buffer, timestamp: string, given: string): boolean {
  const expected = Buffer.from(signature(secret, timestamp, body), 'hex');
  const actual = /^[0-9a-f]+$/i.test(given) ? Buffer.from(given, 'hex') : Buffer.alloc(0);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Why a timestamp cannot be taken now, or undefined when it can. */
function staleness(timestamp: string, now: number): string | undefined {
  if (!/^\d{1,12}$/.test(timestamp)) return `${TIMESTAMP_HEADER} is not Unix seconds`;
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S)
    return `${TIMESTAMP_HEADER} is more than 5 minutes away from now`;
  return undefined;
}

/** One signature's check: it matches `body` at a recent `timestamp` with `secret`. */
export function verifySignature(
  secret: string,
  body: string | Buffer,
  timestamp: string | undefined,
  given: string | undefined,
  now = Date.now(),
): boolean {
  if (!timestamp || !given || staleness(timestamp, now)) return false;
  return matches(secret, body, timestamp, given);
}

/**
 * A receiver's check of a delivery: `body` (the raw bytes received) was signed at a recent timestamp
 * with one of `secrets`, in `Service-Signature` or (during a rotation's overlap) `Service-Signature-New`.
 */
export function checkSignature(
  secrets: readonly string[],
  body: string | Buffer,
  headers: Readonly<Record<string, unknown>> | undefined,
  now = Date.now(),
): SignatureCheck {
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const given = [SIGNATURE_HEADER, NEW_SIGNATURE_HEADER]
    .map((name) => headerValue(headers, name))
    .filter((v): v is string => v !== undefined);
  if (!timestamp || given.length === 0)
    return { ok: false, reason: `missing ${TIMESTAMP_HEADER} or ${SIGNATURE_HEADER}` };
  const stale = staleness(timestamp, now);
  if (stale) return { ok: false, reason: stale };
  if (!secrets.some((secret) => given.some((g) => matches(secret, body, timestamp, g))))
    return { ok: false, reason: `${SIGNATURE_HEADER} does not match the body` };
  return { ok: true };
}
