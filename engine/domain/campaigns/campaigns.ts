// A campaign as the API shows it: the stored object with its creatives and its upload, each read in one
// query for a whole page (they live under it), `is_draft` following its status, and when its schedule
// next starts a run.
import { creatives } from '../../catalog/creatives';
import { uploads } from '../../catalog/audience-uploads';
import { shown } from '../audiences/uploads';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import { isSchedule, nextTick } from './scheduler';
import { approvalOf } from './approval';
import { isAgentDriven } from '../agents/driven';

export async function withCreatives(services: Services, scope: Scope, campaigns: ApiObject[]): Promise<ApiObject[]> {
  const byCampaign = await services.objects.children(
    scope,
    creatives.name,
    campaigns.map((c) => c.id),
  );
  const uploadsOf = await services.objects.children(
    scope,
    uploads.name,
    campaigns.map((c) => c.id),
  );
  return campaigns.map((c) => ({
    ...c,
    // campaigns stored before these fields existed
    print_speed: c.print_speed ?? 'core',
    remail_after_days: c.remail_after_days ?? null,
    recurring: c.recurring === true || Boolean(c.schedule),
    is_draft: c.status === 'draft',
    requires_approval: c.requires_approval === true,
    approval: approvalOf(c),
    agent_driven: isAgentDriven(c),
    next_run_at:
      isSchedule(c.schedule) && c.status !== 'paused' && c.status !== 'cancelled' ? nextTick(c.schedule) : null,
    creatives: byCampaign.get(c.id) ?? [],
    uploads: (uploadsOf.get(c.id) ?? []).map(shown),
  }));
}
