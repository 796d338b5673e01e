import { DirectoryStore } from './directory-store';
import { S3Store, s3LocationOf } from './s3-store';
import type { AssetStore } from './store';

/** The store ASSET_STORE names: `s3://bucket/prefix`, else a directory. */
export function openAssetStore(
  location: string,
  s3Endpoint: string | undefined,
  env: Record<string, string | undefined> = process.env,
): AssetStore {
  if (location.startsWith('s3://')) return new S3Store(s3LocationOf(location, s3Endpoint, env));
  return new DirectoryStore(location);
}
