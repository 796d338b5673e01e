// Assets in an S3-compatible bucket (AWS, MinIO, R2, ...): `s3://bucket/prefix` in ASSET_STORE,
// path-style requests to S3_ENDPOINT when one is set, credentials from the AWS SDK's usual chain
// (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a shared profile, or the machine's or task's role).
// Writes stream through lib-storage's multipart upload (5 MB parts, two in flight: about 10 MB held
// whatever the file's size); reads stream the response body, ranges included.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { awsS3, awsStorage } from '../../base/packages';
import { codeOf } from '../../base/thrown';
import {
  assertSafeKey,
  contentTypeOf,
  hashingCounter,
  type AssetStore,
  type ByteRange,
  type PutResult,
  type StoredAsset,
  type StreamedAsset,
} from './store';

export interface S3Location {
  bucket: string;
  prefix: string;
  /** a custom endpoint (MinIO, R2, a test server), addressed path-style; AWS itself when undefined */
  endpoint?: string;
  region: string;
}

const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;
const DELETE_BATCH = 1000;

export function s3LocationOf(
  store: string,
  endpoint: string | undefined,
  env: Record<string, string | undefined>,
): S3Location {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(store);
  if (!match) throw new Error(`ASSET_STORE ${store} is not s3://bucket/prefix`);
  return {
    bucket: match[1],
    prefix: match[2].replace(/\/+$/, ''),
    endpoint: endpoint ? endpoint.replace(/\/+$/, '') : undefined,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1',
  };
}

/** The HTTP status the SDK keeps on its errors, when there is one. */
function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('$metadata' in error)) return undefined;
  const meta = error.$metadata;
  if (typeof meta !== 'object' || meta === null || !('httpStatusCode' in meta)) return undefined;
  return typeof meta.httpStatusCode === 'number' ? meta.httpStatusCode : undefined;
}

/** A missing object, as S3 and its look-alikes report it (the SDK's error name or the HTTP status). */
function isMissing(error: unknown): boolean {
  const status = statusOf(error);
  const name = error instanceof Error ? error.name : undefined;
  return status === 404 || name === 'NoSuchKey' || name === 'NotFound' || codeOf(error) === 'NoSuchKey';
}

export class S3Store implements AssetStore {
  readonly label: string;
  private readonly client: S3Client;

  constructor(private readonly at: S3Location) {
    this.label = `s3://${at.bucket}/${at.prefix}${at.endpoint ? ` at ${at.endpoint}` : ''}`;
    const { S3Client: Client } = awsS3();
    this.client = new Client({
      region: at.region,
      ...(at.endpoint && { endpoint: at.endpoint, forcePathStyle: true }),
      // checksums only where S3 requires them: S3-compatible servers differ on the newer trailing ones
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    assertSafeKey(key);
    return [this.at.prefix, key].filter(Boolean).join('/');
  }

  async put(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    const { PutObjectCommand } = awsS3();
    await this.client.send(
      new PutObjectCommand({ Bucket: this.at.bucket, Key: this.objectKey(key), Body: bytes, ContentType: contentType }),
    );
  }

  /** Multipart as it flows: an object appears only once its upload completes, so no reader sees half. */
  async putStream(key: string, source: Readable, contentType: string): Promise<PutResult> {
    const { Upload } = awsStorage();
    const counter = hashingCounter();
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.at.bucket, Key: this.objectKey(key), Body: counter.transform, ContentType: contentType },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    await Promise.all([pipeline(source, counter.transform), upload.done()]);
    return counter.result();
  }

  async size(key: string): Promise<number | undefined> {
    const { HeadObjectCommand } = awsS3();
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.at.bucket, Key: this.objectKey(key) }));
      return head.ContentLength;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<StreamedAsset | undefined> {
    const { GetObjectCommand } = awsS3();
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.at.bucket,
          Key: this.objectKey(key),
          ...(range && { Range: `bytes=${range.start}-${range.end}` }),
        }),
      );
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 GET ${key}: no body stream`);
      return { stream: answer.Body, contentType: contentTypeOf(key), size: answer.ContentLength };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async get(key: string): Promise<StoredAsset | undefined> {
    const streamed = await this.getStream(key);
    if (!streamed) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of streamed.stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
    return { bytes: Buffer.concat(chunks), contentType: streamed.contentType };
  }

  async delete(keys: readonly string[]): Promise<void> {
    const { DeleteObjectsCommand } = awsS3();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH).map((key) => ({ Key: this.objectKey(key) }));
      const answer = await this.client.send(
        new DeleteObjectsCommand({ Bucket: this.at.bucket, Delete: { Objects: batch, Quiet: true } }),
      );
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) throw new Error(`S3 DELETE: ${failed.map((e) => `${e.Key} ${e.Code}`).join(', ')}`);
    }
  }
}
