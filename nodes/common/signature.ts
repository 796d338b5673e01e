// Checking that a delivery came from the engine (docs/compat-notes.md, "Events and webhooks"), for
// both packs' triggers: `Service-Signature` is the hex HMAC-SHA256 of `timestamp + "." + raw body`
// keyed with the webhook's secret, `Service-Signature-Timestamp` Unix seconds. A timestamp more than
// 5 minutes away from now is refused, so a captured delivery cannot be replayed later.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'Service-Signature';
export const TIMESTAMP_HEADER = 'Service-Signature-Timestamp';
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

/** Whether `body` (the raw bytes received) was signed with `secret` at a recent `timestamp`. */
export function checkSignature(
  secret: string,
  body: string | Buffer,
  timestamp: string | undefined,
  signature: string | undefined,
  now = Date.now(),
): SignatureCheck {
  if (!timestamp || !signature) return { ok: false, reason: `missing ${TIMESTAMP_HEADER} or ${SIGNATURE_HEADER}` };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: `${TIMESTAMP_HEADER} is not Unix seconds` };
  if (Math.abs(now / 1000 - Number(timestamp)) > SIGNATURE_TOLERANCE_S)
    return { ok: false, reason: `${TIMESTAMP_HEADER} is more than 5 minutes away from now` };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();
  const given = /^[0-9a-f]+$/i.test(signature) ? Buffer.from(signature, 'hex') : Buffer.alloc(0);
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { ok: false, reason: `${SIGNATURE_HEADER} does not match the body` };
  return { ok: true };
}
