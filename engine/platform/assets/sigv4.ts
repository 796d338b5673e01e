// AWS Signature Version 4 for the few S3 calls the asset store makes (PUT, GET, DELETE of one object),
// so an S3-compatible bucket needs no SDK: canonical request, string to sign, derived key, header.
import { createHash, createHmac } from 'node:crypto';

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignInput {
  method: string;
  url: URL;
  headers: Record<string, string>;
  /** hex SHA-256 of the body (`UNSIGNED-PAYLOAD` is not used: bodies are in memory) */
  payloadHash: string;
  region: string;
  service: string;
  /** `YYYYMMDDTHHMMSSZ` */
  amzDate: string;
}

const sha256 = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (`/` kept in paths, encoded in query values). */
export function uriEncode(value: string, keepSlash: boolean): string {
  return [...value]
    .map((ch) => {
      if (/[A-Za-z0-9\-._~]/.test(ch) || (keepSlash && ch === '/')) return ch;
      return [...Buffer.from(ch)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    })
    .join('');
}

export const hashPayload = (body: Uint8Array | string): string => sha256(body);

/** The Authorization header value for the request; `headers` must include host and x-amz-date. */
export function authorization(input: SignInput, credentials: Credentials): string {
  const names = Object.keys(input.headers)
    .map((n) => n.toLowerCase())
    .sort();
  const lower = Object.fromEntries(Object.entries(input.headers).map(([k, v]) => [k.toLowerCase(), v]));
  const canonicalHeaders = names.map((n) => `${n}:${lower[n].trim().replace(/\s+/g, ' ')}\n`).join('');
  const query = [...input.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const path = uriEncode(decodeURIComponent(input.url.pathname), true);
  const canonical = [input.method, path, query, canonicalHeaders, names.join(';'), input.payloadHash].join('\n');
  const day = input.amzDate.slice(0, 8);
  const scope = `${day}/${input.region}/${input.service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256(canonical)].join('\n');
  const key = ['aws4_request'].reduce(
    (k, part) => hmac(k, part),
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), input.region), input.service),
  );
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`;
}
