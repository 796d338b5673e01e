// A deleted campaign mails nothing more: its pieces that have not gone to production are cancelled,
// whatever their cancellation window says (the vendor's DELETE /campaigns/{id} does the same), each by
// the same compare-and-set as a cancel, so one that production claimed first stays in production.
import { findResource } from '../../catalog';
import { CREATIVE_KINDS } from '../../catalog/creatives';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { Resource } from '../../catalog/types';
import { cancelPiece } from '../pieces/cancel';
import { nextTurn } from '../../base/next-turn';

/** Visits every piece of the campaign, of every mailpiece kind, oldest first, a page at a time. */
export async function eachCampaignPiece(
  services: Services,
  scope: Scope,
  campaignId: string,
  visit: (resource: Resource, piece: ApiObject) => Promise<void>,
): Promise<void> {
  for (const name of Object.values(CREATIVE_KINDS)) {
    const resource = findResource(name);
    if (!resource?.mailpiece) continue;
    let after: string | undefined;
    do {
      const page = await services.objects.list(scope, resource.name, {
        limit: 100,
        after,
        filters: [{ column: 'campaign_id', match: 'equals', value: campaignId }],
        sort: { column: 'date_created', direction: 'asc' },
      });
      for (const piece of page.data) await visit(resource, piece);
      after = page.next;
      if (after) await nextTurn();
    } while (after);
  }
}

/** Cancels every piece of the campaign not yet in production; how many were cancelled. */
export async function cancelCampaignPieces(services: Services, scope: Scope, campaignId: string): Promise<number> {
  let cancelled = 0;
  await eachCampaignPiece(services, scope, campaignId, async (resource, piece) => {
    if (piece.production) return;
    const done = await cancelPiece(services.objects, services.assets, scope, undefined, resource, piece.id).then(
      () => true,
      () => false, // claimed by production meanwhile, or gone: either way not ours to cancel
    );
    if (done) cancelled++;
  });
  return cancelled;
}
