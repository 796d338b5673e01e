// How a delivery is signed (docs/compat-notes.md): `Service-Signature-Timestamp` is Unix seconds,
// `Service-Signature` the hex HMAC-SHA256 of `timestamp + "." + body` keyed with the webhook's secret.
// A receiver recomputes it and refuses a timestamp older than 5 minutes (a replayed request).
// While a rotation overlaps, `Service-Signature` still carries the old secret's signature (so a
// receiver that knows only the old secret, and compares the header whole, keeps working) and
// `Service-Signature-New` the new secret's; after the overlap, `Service-Signature` alone, with the new.
// One header holding a list (as Stripe's does) would fail every receiver that compares it whole.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const TIMESTAMP_HEADER = 'Service-Signature-Timestamp';
/** The new secret's signature, while the old one still signs (`Service-Signature`). */
export const NEW_SIGNATURE_HEADER = 'Service-Signature-New';
/** How old a signed timestamp may be when it is checked. */
export const SIGNATURE_TOLERANCE_S = 300;

export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64url')}`;

export function signature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
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
