// An upload's file arriving: read once from where the request streamed it, row by row, so whatever makes
// the file unreadable (not UTF-8, no header, no rows, an unclosed quote, a row past the size limit, a
// mapped column the header lacks) is a 422 before anything is kept; then copied as a stream into the
// asset store and recorded on the upload by one compare-and-set. Nothing is half made: a refusal keeps
// nothing, and a file stored for a change that then loses is removed.
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { ApiError, notFound } from '../../base/errors';
import { uploads } from '../../catalog/audience-uploads';
import type { UploadRef } from '../../catalog/uploads';
import type { Services } from '../services';
import type { Scope } from '../../store/objects';
import { nowIso } from '../../base/time';
import { reopenApproval } from '../approvals/reopen';
import { markAgentDriven } from '../agents/driven';
import { checkedHeader, readCsv } from './csv';
import { RowReader, assertMappingFits, mapsAnAddress, mappingOf, stateOf, type Mapping } from './rows';

export interface FileTally {
  header: string[];
  rows: number;
  /** rows that can make no piece; counted only when the mapping names an address */
  failed: number;
}

/** Reads a whole CSV: its header (the mapping must fit it) and how many rows it has and how many fail. */
export async function tallyFile(source: Readable, mapping: Mapping): Promise<FileTally> {
  const csv = readCsv(source);
  try {
    const first = await csv.next();
    const header = checkedHeader(first.done ? undefined : first.value);
    assertMappingFits(mapping, header);
    const reader = mapsAnAddress(mapping) ? new RowReader(mapping, header) : undefined;
    let rows = 0;
    let failed = 0;
    for await (const row of csv) {
      if (Array.isArray(row)) continue;
      rows++;
      if (reader?.problem(row) !== undefined) failed++;
    }
    if (rows === 0) throw new ApiError('invalid', 'the file has a header but no rows', 422);
    return { header, rows, failed };
  } finally {
    // a refusal before the last row leaves the reader open: this closes the file
    await csv.return();
  }
}

/** `agent`: an AI agent sends the file, and the upload's campaign becomes agent-driven (../agents/driven.ts). */
export async function receiveFile(services: Services, scope: Scope, id: string, file: UploadRef, agent = false) {
  const upload = await services.objects.get(scope, uploads.name, id);
  if (!upload) throw notFound('upload');
  if (agent) await markAgentDriven(services.objects, scope, upload.campaignId);
  const already = () => new ApiError('invalid', `upload ${id} has its file already: create another upload`, 422);
  if (upload.file_key) throw already();
  const mapping = JSON.stringify(mappingOf(upload));
  const tally = await tallyFile(fs.createReadStream(file.path), mappingOf(upload));
  await reopenApproval(services.objects, scope, upload.campaignId, "its audience's file");
  // a key of its own: two requests racing for one upload each store theirs, and the loser removes it
  const key = `audiences/${id}_${randomBytes(6).toString('hex')}.csv`;
  const stored = await services.assets.putStream(key, fs.createReadStream(file.path), 'text/csv');
  try {
    const updated = await services.objects.transition(scope, uploads.name, id, {
      refuse: (current) => {
        if (current.file_key) return already();
        // the counts were taken with the mapping read first
        if (JSON.stringify(mappingOf(current)) !== mapping)
          return new ApiError('conflict', 'the mapping of the upload changed meanwhile: send the file again', 409);
        return undefined;
      },
      change: (current) => {
        const next = {
          ...current,
          file_key: key,
          columns: tally.header,
          originalFilename: current.originalFilename ?? file.filename,
          bytesProcessed: stored.size,
          totalMailpieces: tally.rows,
          failedMailpieces: tally.failed,
          validatedMailpieces: tally.rows - tally.failed,
          dateModified: nowIso(),
        };
        return { ...next, state: stateOf(next) };
      },
    });
    if (!updated) throw notFound('upload');
  } catch (error) {
    await services.assets.delete([key]).catch(() => undefined);
    throw error;
  }
  return { message: 'File uploaded successfully' as const, filename: file.filename };
}
