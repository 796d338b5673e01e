// Checking that a delivery came from the engine (docs/compat-notes.md, "Events and webhooks"), for
// both packs' triggers: `Service-Signature` is the hex HMAC-SHA256 of `timestamp + "." + raw body`
// keyed with the webhook's secret, `Service-Signature-Timestamp` Unix seconds. A timestamp more than
// 5 minutes away from now is refused, so a captured delivery cannot be replayed later. While a rotation
// overlaps, `Service-Signature` carries the old secret's signature and `Service-Signature-New` the new
// one's: a delivery is taken when either matches any secret the pack holds.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const TIMESTAMP_HEADER = 'Service-Signature-Timestamp';
export const NEW_SIGNATURE_HEADER = 'Service-Signature-New';
export const SIGNATURE_TOLERANCE_S = 300;

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

const matches = (secret: string, body: string | Buffer, timestamp: string, signature: string) => {
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  return given.length === expected.length && timingSafeEqual(given, expected);
};

/**
 * Whether `body` (the raw bytes received) was signed at a recent timestamp with one of `secrets`, in
 * `Service-Signature` or (during a rotation's overlap) `Service-Signature-New`.
 */
export function checkSignature(
  secrets: readonly string[],
  body: string | Buffer,
  headers: Readonly<Record<string, unknown>> | undefined,
  now = Date.now(),
): SignatureCheck {
  const timestamp = headerValue(headers, TIMESTAMP_HEADER);
  const signatures = [SIGNATURE_HEADER, NEW_SIGNATURE_HEADER]
    .map((name) => headerValue(headers, name))
    .filter((v): v is string => v !== undefined);
  if (!timestamp || signatures.length === 0)
    return { ok: false, reason: `missing ${TIMESTAMP_HEADER} or ${SIGNATURE_HEADER}` };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: `${TIMESTAMP_HEADER} is not Unix seconds` };
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S)
    return { ok: false, reason: `${TIMESTAMP_HEADER} is more than 5 minutes away from now` };
  if (!secrets.some((secret) => signatures.some((signature) => matches(secret, body, timestamp, signature))))
    return { ok: false, reason: `${SIGNATURE_HEADER} does not match the body` };
  return { ok: true };
}
