// The first step of building a campaign, and its settings later: name, description, use type, send
// date, a recurring schedule, and whether a person must approve it before its pieces go to production
// (in live mode, while the account requires approval, it cannot be turned off). The form's fields
// become the API's create or update body, checked by the catalog and saved by the same domain
// functions the API calls (domain/campaigns/settings.ts).
import { ApiError } from '../../../base/errors';
import { campaignOperations, campaigns } from '../../../catalog/campaigns';
import { validate } from '../../../domain/validation/validate';
import { createCampaign, updateCampaign } from '../../../domain/campaigns/settings';
import { requiresApprovalByDefault } from '../../../domain/campaigns/approval';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';
import { stepsOf } from './campaign-steps';
import { isPlainObject } from '../../../base/records';
import type { ApiObject } from '../../../store/objects';

/** A `datetime-local` value (read as UTC) as an ISO date-time; blank: none. */
export function utcDateTime(value: string | undefined): string | null | undefined {
  const text = (value ?? '').trim();
  if (!text) return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return undefined;
  const date = new Date(`${text.length === 16 ? `${text}:00` : text}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The form's `datetime-local` value of a stored date-time. */
const localValue = (iso: unknown) => (typeof iso === 'string' && iso.length >= 16 ? iso.slice(0, 16) : '');

/** The create or update body the form describes. */
function bodyOf(form: Record<string, string>, approvalLocked: boolean): Record<string, unknown> {
  const sendDate = utcDateTime(form.send_date);
  if (sendDate === undefined) throw new ApiError('invalid', 'The send date must be a date and time.', 422);
  const cron = (form.cron ?? '').trim();
  return {
    name: (form.name ?? '').trim(),
    description: (form.description ?? '').trim() || null,
    use_type: form.use_type || null,
    send_date: sendDate,
    schedule: cron ? { cron, time_zone: (form.time_zone ?? '').trim() || 'UTC' } : null,
    requires_approval: approvalLocked || form.requires_approval === 'on',
  };
}

function formOf(request: DashboardRequest, campaign?: ApiObject) {
  const locked = requiresApprovalByDefault(request.scope, request.session.account.settings);
  const schedule = isPlainObject(campaign?.schedule) ? campaign.schedule : undefined;
  return {
    locked,
    input: campaign
      ? {
          name: campaign.name,
          description: campaign.description,
          use_type: campaign.use_type,
          send_date: localValue(campaign.send_date),
          cron: schedule?.cron ?? '',
          time_zone: schedule?.time_zone ?? 'UTC',
          requires_approval: campaign.requires_approval === true,
        }
      : { use_type: 'marketing', time_zone: 'UTC', requires_approval: locked },
  };
}

function settingsPage(request: DashboardRequest, campaign?: ApiObject, problem?: string): PageAnswer {
  const form = formOf(request, campaign);
  return {
    view: 'campaign-settings',
    title: campaign ? `Settings of ${String(campaign.name)}` : 'New campaign',
    nav: 'campaigns',
    status: problem ? 422 : 200,
    data: {
      ...form,
      // a refused form shows what was typed
      input: problem
        ? { ...request.form, requires_approval: form.locked || request.form.requires_approval === 'on' }
        : form.input,
      campaign,
      problem,
      steps: stepsOf(campaign?.id, 'settings'),
      action: campaign ? `/dashboard/campaigns/${String(campaign.id)}/settings` : '/dashboard/campaigns/new',
    },
  };
}

async function stored(request: DashboardRequest) {
  const campaign = await request.services.objects.get(request.scope, campaigns.name, request.params.id);
  if (!campaign) throw new PageNotFound();
  return campaign;
}

/** Runs a save; a refusal (the catalog's checks, a bad cron) is shown on the form with what was typed. */
async function saving(request: DashboardRequest, save: () => Promise<PageAnswer>, campaign?: ApiObject) {
  try {
    return await save();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    if (error.status === 404) throw new PageNotFound();
    return settingsPage(request, campaign, error.message);
  }
}

const create = (request: DashboardRequest) =>
  saving(request, async () => {
    const { services, scope, session, form } = request;
    const locked = requiresApprovalByDefault(scope, session.account.settings);
    const body = validate(campaignOperations.create.body, { ...bodyOf(form, locked), schedule_type: 'immediate' });
    const campaign = await createCampaign(services, scope, session.account.settings, body);
    return { redirect: `/dashboard/campaigns/${campaign.id}/audience`, notice: 'campaign_created' };
  });

async function update(request: DashboardRequest) {
  const campaign = await stored(request);
  return saving(
    request,
    async () => {
      const { services, scope, session, form } = request;
      const locked = requiresApprovalByDefault(scope, session.account.settings);
      const body = validate(campaignOperations.update.body, bodyOf(form, locked));
      await updateCampaign(services, scope, session.account.settings, campaign.id, body);
      return { redirect: `/dashboard/campaigns/${campaign.id}`, notice: 'campaign_saved' };
    },
    campaign,
  );
}

export const campaignSettingsPages = [
  page('GET', '/campaigns/new', async (request) => settingsPage(request)),
  page('POST', '/campaigns/new', create),
  page('GET', '/campaigns/{id}/settings', async (request) => settingsPage(request, await stored(request))),
  page('POST', '/campaigns/{id}/settings', update),
];
