// Deleting a campaign: one transaction deletes it and cancels every piece of it production has not
// claimed, set-based (store/campaign-pieces.ts), each with the `<kind>.deleted` event a single cancel
// records; a run making pieces meanwhile cannot add a live one after it, since each piece's commit
// requires its campaign live (pass.ts). The answer says how many pieces were cancelled and how many
// were already in production and stay; the cancelled pieces' files are queued for removal.
import { mailpieceResources } from '../../catalog';
import { campaigns } from '../../catalog/campaigns';
import type { Resource } from '../../catalog/types';
import { notFound } from '../../base/errors';
import type { Services } from '../services';
import type { CampaignPieceCancel, Scope } from '../../store/objects';
import { REMOVE_FILES, REMOVE_FILES_OPTIONS, type RemoveFilesData } from '../../platform/jobs/names';
import { pieceFileKeys } from '../pieces/piece-files';
import { productionOf } from '../production/claim';

/** The answer of DELETE /v1/campaigns/{id}. */
export interface CampaignDeleted {
  id: string;
  deleted: true;
  pieces_cancelled: number;
  pieces_in_production: number;
}

/** File keys a removal job carries. */
const KEYS_PER_JOB = 2_000;

export async function deleteCampaign(services: Services, scope: Scope, id: string): Promise<CampaignDeleted> {
  // every mailpiece kind: a piece created on its own may name the campaign too
  const kinds: readonly Resource[] = mailpieceResources;
  const byKind = new Map(kinds.map((r) => [r.name, r]));
  const cancel: CampaignPieceCancel = {
    campaignId: id,
    kinds: kinds.map((r) => {
      const type = `${r.object}.deleted`;
      return { kind: r.name, event: r.events.includes(type) ? { type, resource: r.name } : undefined };
    }),
    keeps: (piece) => productionOf(piece) !== undefined,
    cancelled: [],
    kept: 0,
  };
  const deleted = await services.objects.transition(scope, campaigns.name, id, {
    change: (current) => ({ ...current, deleted: true }),
    cancelsPieces: cancel,
  });
  if (!deleted) throw notFound('campaign');
  const keys = cancel.cancelled.flatMap(({ kind, piece }) => {
    const resource = byKind.get(kind);
    return resource ? pieceFileKeys(resource, piece) : [];
  });
  // queued together: one after another they were a tenth of a 10,000-piece delete on PostgreSQL
  const jobs: Promise<unknown>[] = [];
  for (let i = 0; i < keys.length; i += KEYS_PER_JOB) {
    const data: RemoveFilesData = { keys: keys.slice(i, i + KEYS_PER_JOB) };
    jobs.push(services.jobs.send(REMOVE_FILES, data, REMOVE_FILES_OPTIONS));
  }
  await Promise.all(jobs);
  return { id, deleted: true, pieces_cancelled: cancel.cancelled.length, pieces_in_production: cancel.kept };
}

/** Works the removal of files queued by deletes. */
export async function workFileRemovals(services: Services): Promise<void> {
  await services.jobs.work<RemoveFilesData>(REMOVE_FILES, { concurrency: 1, leaseMs: 120_000 }, (job) =>
    services.assets.delete(job.data.keys),
  );
}
