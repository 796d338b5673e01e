// Campaign approval (our extension): a campaign with `requires_approval` sends no piece to production
// until someone approves it; the decision, who made it and when are recorded on the campaign in one
// compare-and-set with its `campaign.approved` or `campaign.rejected` event. Runs may still make and
// render pieces meanwhile (they are the proofs a reviewer looks at); production waits (produce.ts
// asks `productionGate`), and a rejection cancels every piece of the campaign not yet in production.
import { ApiError, notFound } from '../../base/errors';
import { eventOf } from '../../catalog';
import { campaigns } from '../../catalog/campaigns';
import { isPlainObject } from '../../base/records';
import { nowIso } from '../../base/time';
import { PRODUCE_PIECE, PRODUCE_PIECE_OPTIONS, type ProducePieceData } from '../../platform/jobs/names';
import type { Settings } from '../accounts/settings';
import type { Services } from '../services';
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { cancelCampaignPieces, eachCampaignPiece } from './cancel-pieces';

export type ApprovalStatus = 'pending' | 'approved' | 'rejected';

export interface Approval {
  status: ApprovalStatus;
  decided_by: string | null;
  decided_at: string | null;
  reason: string | null;
}

export interface Decision {
  decision: 'approved' | 'rejected';
  /** who decides, as they name themselves (a dashboard user, an API caller's `by`) */
  by: string;
  reason?: string;
}

const PENDING: Approval = { status: 'pending', decided_by: null, decided_at: null, reason: null };

/** Whether a new campaign requires approval when its create does not say: never in test mode. */
export function requiresApprovalByDefault(scope: Scope, settings: Settings): boolean {
  return scope.mode === 'live' && settings.live_campaigns_require_approval;
}

/** The campaign's approval as stored, or pending when it requires one nobody decided yet; null otherwise. */
export function approvalOf(campaign: ApiObject): Approval | null {
  if (campaign.requires_approval !== true) return null;
  const a = campaign.approval;
  if (!isPlainObject(a)) return PENDING;
  // pending again after a change (../approvals/reopen.ts): the reason says what changed
  if (a.status !== 'approved' && a.status !== 'rejected')
    return { ...PENDING, reason: typeof a.reason === 'string' ? a.reason : null };
  return {
    status: a.status,
    decided_by: typeof a.decided_by === 'string' ? a.decided_by : null,
    decided_at: typeof a.decided_at === 'string' ? a.decided_at : null,
    reason: typeof a.reason === 'string' ? a.reason : null,
  };
}

/** What production may do with a piece of this campaign: go, wait for a decision, or never go. */
export type Gate = 'go' | 'wait' | 'rejected';

export async function productionGate(objects: ObjectStore, scope: Scope, piece: ApiObject): Promise<Gate> {
  if (typeof piece.campaign_id !== 'string') return 'go';
  const campaign = await objects.get(scope, campaigns.name, piece.campaign_id, { includeDeleted: true });
  // a deleted campaign cancelled its pieces itself; a piece that outlived it is judged by its approval
  const approval = campaign && approvalOf(campaign);
  if (!approval || approval.status === 'approved') return 'go';
  return approval.status === 'rejected' ? 'rejected' : 'wait';
}

/** Approves or rejects the campaign; a rejection then cancels its pieces not in production. */
export async function decideApproval(
  services: Services,
  scope: Scope,
  campaignId: string,
  decision: Decision,
): Promise<ApiObject> {
  const decided = await services.objects.transition(scope, campaigns.name, campaignId, {
    refuse: (current) =>
      current.requires_approval === true
        ? undefined
        : new ApiError('invalid', `campaign ${campaignId} does not require approval`, 422),
    change: (current) => ({
      ...current,
      approval: {
        status: decision.decision,
        decided_by: decision.by,
        decided_at: nowIso(),
        reason: decision.reason ?? null,
      },
      date_modified: nowIso(),
    }),
    events: [eventOf(campaigns, decision.decision === 'approved' ? 'approved' : 'rejected')],
  });
  if (!decided) throw notFound('campaign');
  if (decision.decision === 'rejected') await cancelCampaignPieces(services, scope, campaignId);
  else await produceWaitingPieces(services, scope, campaignId);
  return decided;
}

/**
 * Once approved, the campaign's rendered live pieces go to production now rather than when their
 * waiting jobs next look (a produce job may run twice: the piece's claim makes it once).
 */
async function produceWaitingPieces(services: Services, scope: Scope, campaignId: string): Promise<void> {
  if (scope.mode !== 'live') return;
  await eachCampaignPiece(services, scope, campaignId, async (resource, piece) => {
    if (piece.status !== 'rendered' || piece.production) return;
    const data: ProducePieceData = { piece: piece.id, kind: resource.name, account: scope.accountId };
    await services.jobs.send(PRODUCE_PIECE, data, PRODUCE_PIECE_OPTIONS);
  });
}
