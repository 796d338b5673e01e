// How a delivery is signed (docs/compat-notes.md): `Service-Signature-Timestamp` is Unix seconds,
// `Service-Signature` the hex HMAC-SHA256 of `timestamp + "." + body` keyed with the webhook's secret.
// A receiver recomputes it and refuses a timestamp older than 5 minutes (a replayed request).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const TIMESTAMP_HEADER = 'Service-Signature-Timestamp';
/** How old a signed timestamp may be when it is checked. */
export const SIGNATURE_TOLERANCE_S = 300;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The headers of one delivery of `body`, signed now. */
export function signedHeaders(secret: string, body: string, now = Date.now()): Record<string, string> {
  const timestamp = String(Math.floor(now / 1000));
  return {
    'content-type': 'application/json',
    [TIMESTAMP_HEADER.toLowerCase()]: timestamp,
    [SIGNATURE_HEADER.toLowerCase()]: signature(secret, timestamp, body),
  };
}

/** A receiver's check: the signature matches and the timestamp is recent. */
export function verifySignature(
  secret: string,
  body: string,
  timestamp: string | undefined,
  given: string | undefined,
  now = Date.now(),
): boolean {
  if (!timestamp || !given || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = Buffer.from(signature(secret, timestamp, body), 'hex');
  const actual = Buffer.from(given, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
