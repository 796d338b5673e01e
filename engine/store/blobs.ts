// What is known of the files a piece uses (`blobs`): uploaded or fetched artwork, recorded in the
// commit of the piece that uses it (commit.ts). The file itself is in the asset store under
// `asset_key`, copied there as a stream before the commit; rows from before that keep their `bytes`.
import type { Knex } from 'knex';
import type { Scope } from './scope';

/** A file already in the asset store, to record; its size and digest were taken as it was copied. */
export interface NewBlob {
  id: string;
  contentType: string;
  filename: string;
  size: number;
  sha256: string;
  assetKey: string;
  dateCreated: string;
}

export function blobRow(scope: Scope, blob: NewBlob): Record<string, unknown> {
  return {
    id: blob.id,
    account_id: scope.accountId,
    mode: scope.mode,
    content_type: blob.contentType,
    filename: blob.filename,
    size: blob.size,
    sha256: blob.sha256,
    asset_key: blob.assetKey,
    date_created: blob.dateCreated,
  };
}

/** Where a blob's file is: in the asset store, or (rows from before the store kept them) its bytes. */
export type StoredBlob = { assetKey: string } | { bytes: Buffer };

interface BlobRow {
  id: string;
  account_id: string;
  mode: Scope['mode'];
  asset_key: string | null;
  bytes: Buffer | null;
}

/** The file of a blob of this scope, or undefined when there is no such row. */
export async function readBlob(knex: Knex, scope: Scope, id: string): Promise<StoredBlob | undefined> {
  const row = await knex<BlobRow>('blobs')
    .select('asset_key', 'bytes')
    .where({ id, account_id: scope.accountId, mode: scope.mode })
    .first();
  if (!row) return undefined;
  if (row.asset_key) return { assetKey: row.asset_key };
  return row.bytes ? { bytes: Buffer.from(row.bytes) } : undefined;
}
