// Where rendered files live: one small interface, a directory by default or an S3-compatible bucket,
// chosen by ASSET_STORE. Keys are relative paths (`postcards/psc_….pdf`, `uploads/blob_…`).
import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';

export interface StoredAsset {
  bytes: Buffer;
  contentType: string;
}

/** A file read as a stream, so a large upload or PDF is never held whole to be served. */
export interface StreamedAsset {
  stream: Readable;
  contentType: string;
  /** bytes of this stream (of the range, when one was asked), when the store knows it before reading */
  size?: number;
}

/** Bytes `start` to `end` of a file, both included (as in an HTTP Range header), inside its size. */
export interface ByteRange {
  start: number;
  end: number;
}

/** What a streaming put wrote: counted and hashed as it went, so nobody reads the file again for it. */
export interface PutResult {
  size: number;
  sha256: string;
}

export interface AssetStore {
  /** where it writes, for the start banner */
  readonly label: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** writes `source` under `key`, hashing it on the way; a reader never sees half of it */
  putStream(key: string, source: Readable, contentType: string): Promise<PutResult>;
  /** the file, or undefined when there is none under `key` */
  get(key: string): Promise<StoredAsset | undefined>;
  /** the file (or its `range`) as a stream, or undefined when there is none under `key` */
  getStream(key: string, range?: ByteRange): Promise<StreamedAsset | undefined>;
  /** the file's size in bytes, or undefined when there is none under `key` */
  size(key: string): Promise<number | undefined>;
  delete(keys: readonly string[]): Promise<void>;
  /** removes what a writer killed mid-write left behind (a store whose writes are atomic has none) */
  sweep?(): Promise<number>;
}

const SAFE_KEY = /^[a-z0-9_-]+(\/[A-Za-z0-9_.-]+)+$/;

/** Keys come from our own code, but a key is also read back from a URL path: refuse anything odd. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key) || key.split('/').some((part) => part === '..' || part === '.'))
    throw new Error(`unsafe asset key ${JSON.stringify(key)}`);
}

export function contentTypeOf(key: string): string {
  if (key.endsWith('.pdf')) return 'application/pdf';
  if (key.endsWith('.png')) return 'image/png';
  return 'application/octet-stream';
}

/** A pass-through that counts and hashes what flows through it; read `result()` once it has ended. */
export function hashingCounter(): { transform: Transform; result: () => PutResult } {
  const hash = createHash('sha256');
  let size = 0;
  let digest: string | undefined;
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { transform, result: () => ({ size, sha256: (digest ??= hash.digest('hex')) }) };
}
