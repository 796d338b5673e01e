// Files kept in the database itself (`blobs`): uploaded or fetched artwork, written in the commit of
// the piece that uses it (commit.ts), so every engine process sharing the database reads the same bytes.
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Scope } from './scope';

/** A file to store; its size and digest are the store's to compute. */
export interface NewBlob {
  id: string;
  contentType: string;
  filename: string;
  bytes: Buffer;
  dateCreated: string;
}

export function blobRow(scope: Scope, blob: NewBlob): Record<string, unknown> {
  return {
    id: blob.id,
    account_id: scope.accountId,
    mode: scope.mode,
    content_type: blob.contentType,
    filename: blob.filename,
    size: blob.bytes.length,
    sha256: createHash('sha256').update(blob.bytes).digest('hex'),
    bytes: blob.bytes,
    date_created: blob.dateCreated,
  };
}

/** The stored bytes of a blob of this scope, or undefined. */
export async function readBlob(knex: Knex, scope: Scope, id: string): Promise<Buffer | undefined> {
  const row = (await knex('blobs')
    .select('bytes')
    .where({ id, account_id: scope.accountId, mode: scope.mode })
    .first()) as { bytes: Buffer } | undefined;
  return row?.bytes;
}
