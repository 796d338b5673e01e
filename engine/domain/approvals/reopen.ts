// A campaign that was approved (or rejected) and then changes in what it mails (its creatives, its
// audience, its schedule or send date) needs a new decision: what was approved is no longer what
// would go out. Its approval goes back to pending, with the change named, so production waits again
// (domain/campaigns/approval.ts reads it). Callers reopen before they make the change: if the change
// then fails, the campaign only waits for a decision it did not need, never mails an unreviewed piece.
import { campaigns } from '../../catalog/campaigns';
import { isPlainObject } from '../../base/records';
import { nowIso } from '../../base/time';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';

/** Whether the campaign holds a decision that a change of what it mails must undo. */
export const holdsDecision = (campaign: ApiObject): boolean =>
  campaign.requires_approval === true &&
  isPlainObject(campaign.approval) &&
  (campaign.approval.status === 'approved' || campaign.approval.status === 'rejected');

/** The approval a campaign gets back when `what` changed after its decision. */
export const reopened = (what: string) => ({
  status: 'pending' as const,
  decided_by: null,
  decided_at: null,
  reason: `${what} changed after the last decision (${nowIso()}): it needs a new approval`,
});

/** Puts the campaign's approval back to pending when it holds a decision; nothing otherwise. */
export async function reopenApproval(objects: ObjectStore, scope: Scope, campaignId: string, what: string) {
  const campaign = await objects.get(scope, campaigns.name, campaignId);
  if (!campaign || !holdsDecision(campaign)) return;
  await objects.transition(scope, campaigns.name, campaignId, {
    change: (current) => (holdsDecision(current) ? { ...current, approval: reopened(what) } : current),
  });
}
