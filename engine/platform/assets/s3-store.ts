// Assets in an S3-compatible bucket (AWS, MinIO, R2, ...): `s3://bucket/prefix` in ASSET_STORE,
// path-style requests to S3_ENDPOINT, keys from the usual AWS_* variables.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { authorization, hashPayload, type Credentials } from './sigv4';
import {
  assertSafeKey,
  contentTypeOf,
  type AssetStore,
  type PutResult,
  type StoredAsset,
  type StreamedAsset,
} from './store';

export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint: string;
  region: string;
  credentials: Credentials;
}

const TIMEOUT_MS = 30_000;

export function s3LocationOf(
  store: string,
  endpoint: string | undefined,
  env: Record<string, string | undefined>,
): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(store);
  if (!match) throw new Error(`ASSET_STORE ${store} is not s3://bucket/prefix`);
  const region = env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
  const accessKeyId = env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey)
    throw new Error('ASSET_STORE names an S3 bucket: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY');
  return {
    bucket: match[1],
    prefix: match[2].replace(/\/+$/, ''),
    endpoint: (endpoint || `https://s3.${region}.amazonaws.com`).replace(/\/+$/, ''),
    region,
    credentials: { accessKeyId, secretAccessKey, sessionToken: env.AWS_SESSION_TOKEN || undefined },
  };
}

export class S3Store implements AssetStore {
  readonly label: string;

  constructor(private readonly at: S3Location) {
    this.label = `s3://${at.bucket}/${at.prefix} at ${at.endpoint}`;
  }

  private async call(method: string, key: string, body?: Uint8Array, contentType?: string): Promise<Response> {
    assertSafeKey(key);
    const objectKey = [this.at.prefix, key].filter(Boolean).join('/');
    const url = new URL(`${this.at.endpoint}/${this.at.bucket}/${objectKey}`);
    const amzDate = new Date()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d{3}/, '');
    const payloadHash = hashPayload(body ?? '');
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-date': amzDate,
      'x-amz-content-sha256': payloadHash,
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(this.at.credentials.sessionToken ? { 'x-amz-security-token': this.at.credentials.sessionToken } : {}),
    };
    const auth = authorization(
      { method, url, headers, payloadHash, region: this.at.region, service: 's3', amzDate },
      this.at.credentials,
    );
    const { host: _host, ...sent } = headers;
    return fetch(url, {
      method,
      headers: { ...sent, authorization: auth },
      body: body ? Buffer.from(body) : undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const response = await this.call('PUT', key, bytes, contentType);
    if (!response.ok) throw new Error(`S3 PUT ${key}: ${response.status} ${await response.text()}`);
  }

  /**
   * Buffers the stream, then one signed PUT: SigV4 signs the payload's hash up front, and the chunked
   * signing that would stream it is not written yet. Uploads are bounded by MAX_FILE_BYTES before
   * they get here, so the buffer is too.
   */
  async putStream(key: string, source: Readable, contentType: string): Promise<PutResult> {
    const chunks: Buffer[] = [];
    for await (const chunk of source) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
    const bytes = Buffer.concat(chunks);
    await this.put(key, bytes, contentType);
    return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
  }

  async getStream(key: string): Promise<StreamedAsset | undefined> {
    const response = await this.call('GET', key);
    if (response.status === 404) return undefined;
    if (!response.ok || !response.body) throw new Error(`S3 GET ${key}: ${response.status}`);
    const length = Number(response.headers.get('content-length'));
    return {
      stream: Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
      contentType: contentTypeOf(key),
      size: Number.isFinite(length) && length >= 0 && response.headers.has('content-length') ? length : undefined,
    };
  }

  async get(key: string): Promise<StoredAsset | undefined> {
    const response = await this.call('GET', key);
    if (response.status === 404) return undefined;
    if (!response.ok) throw new Error(`S3 GET ${key}: ${response.status}`);
    return { bytes: Buffer.from(await response.arrayBuffer()), contentType: contentTypeOf(key) };
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      const response = await this.call('DELETE', key);
      if (!response.ok && response.status !== 404) throw new Error(`S3 DELETE ${key}: ${response.status}`);
    }
  }
}
