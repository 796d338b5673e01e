// Where rendered files live: one small interface, a directory by default or an S3-compatible bucket,
// chosen by ASSET_STORE. Keys are relative paths (`postcards/psc_….pdf`).
export interface StoredAsset {
  bytes: Buffer;
  contentType: string;
}

export interface AssetStore {
  /** where it writes, for the start banner */
  readonly label: string;
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** the file, or undefined when there is none under `key` */
  get(key: string): Promise<StoredAsset | undefined>;
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
