// A campaign's settings, created and changed the same way from the API and the dashboard: the schedule
// checked (node-cron reads it), `draft` or `scheduled` by whether it has one, approval required by
// default in live mode when the account says so (and not turned off there while it does), and an
// approved campaign whose change touches what it mails back to pending (../approvals/reopen.ts).
import { ApiError, notFound } from '../../base/errors';
import { eventOf } from '../../catalog';
import { type campaignOperations, campaigns } from '../../catalog/campaigns';
import type { BodyOf } from '../../catalog/types';
import type { Settings } from '../accounts/settings';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { newObjectFrom, isStamped } from '../validation/new-object';
import { holdsDecision, reopened } from '../approvals/reopen';
import { requiresApprovalByDefault } from './approval';
import { assertSchedule } from './scheduler';
import { withCreatives } from './campaigns';
import { useTypeOf } from '../pieces/create';

export type CampaignCreate = BodyOf<typeof campaignOperations.create>;
export type CampaignUpdate = BodyOf<typeof campaignOperations.update>;

/** Fields whose change leaves what the campaign mails, and when, as it was approved. */
const NOT_MAILED = new Set(['name', 'description', 'metadata', 'status', 'requires_approval']);

/** A schedule given to a draft (or finished, or failed) campaign makes it `scheduled`; taken away, a draft again. */
function statusForSchedule(current: ApiObject, body: CampaignUpdate): Partial<ApiObject> {
  if (body.status !== undefined || body.schedule === undefined) return {};
  if (body.schedule && (current.status === 'draft' || current.status === 'completed' || current.status === 'failed'))
    return { status: 'scheduled', is_draft: false };
  if (!body.schedule && current.status === 'scheduled') return { status: 'draft', is_draft: true };
  return {};
}

export async function createCampaign(
  services: Services,
  scope: Scope,
  settings: Settings,
  body: CampaignCreate,
  claim?: IdempotencyClaim,
  /** an AI agent asks: the campaign is agent-driven (../agents/driven.ts) */
  agent = false,
): Promise<ApiObject> {
  assertSchedule(body.schedule);
  const status = body.schedule ? 'scheduled' : 'draft';
  const object = newObjectFrom(campaigns, {
    ...body,
    use_type: useTypeOf(body, settings),
    status,
    is_draft: status === 'draft',
    requires_approval: body.requires_approval ?? requiresApprovalByDefault(scope, settings),
    ...(agent ? { agent_driven: true } : {}),
  });
  await services.objects.insert(scope, campaigns.name, object, {
    claim,
    events: [eventOf(campaigns, 'created')],
  });
  return (await withCreatives(services, scope, [object]))[0];
}

export async function updateCampaign(
  services: Services,
  scope: Scope,
  settings: Settings,
  id: string,
  body: CampaignUpdate,
  /** an AI agent asks: the campaign becomes agent-driven (../agents/driven.ts) */
  agent = false,
): Promise<ApiObject> {
  assertSchedule(body.schedule);
  const known = Object.entries(body).filter(
    ([key]) => Object.hasOwn(campaigns.schema.properties, key) && !isStamped(key),
  );
  const updated = await services.objects.transition(scope, campaigns.name, id, {
    refuse: (current) =>
      body.requires_approval === false &&
      current.requires_approval === true &&
      requiresApprovalByDefault(scope, settings)
        ? new ApiError(
            'invalid',
            'requires_approval cannot be turned off: the account requires approval of every live campaign (live_campaigns_require_approval)',
            422,
          )
        : undefined,
    change: (current) => {
      const next = { ...current, ...Object.fromEntries(known) };
      const changed = known
        .filter(
          ([key, value]) => !NOT_MAILED.has(key) && JSON.stringify(value) !== JSON.stringify(current[key] ?? null),
        )
        .map(([key]) => key);
      if (changed.length && holdsDecision(current)) next.approval = reopened(`its ${changed.join(', ')}`);
      // approval required again: a decision made before it was dropped does not carry over
      if (body.requires_approval === true && current.requires_approval !== true)
        next.approval = { status: 'pending' as const, decided_by: null, decided_at: null, reason: null };
      if (agent) next.agent_driven = true;
      return { ...next, ...statusForSchedule(current, body) };
    },
  });
  if (!updated) throw notFound('campaign');
  return (await withCreatives(services, scope, [updated]))[0];
}
