// Campaigns: the list, and a campaign's page as a review: its settings, audience (the upload's row
// report), creatives, proofs of a sample of its real recipients drawn by the engine's renderer
// (domain/campaigns/proofs.ts; each image its own URL, so the page's policy needs no data: images),
// the count and the send date; then approval (who and when recorded), send now, pause and resume, and
// its runs with their reports. Every change goes through the domain functions the API uses.
import { ApiError } from '../../../base/errors';
import { isPlainObject } from '../../../base/records';
import { campaignOperations, campaigns } from '../../../catalog/campaigns';
import { campaignRuns } from '../../../catalog/campaign-runs';
import { validate } from '../../../domain/validation/validate';
import { withCreatives } from '../../../domain/campaigns/campaigns';
import { approvalOf, decideApproval } from '../../../domain/campaigns/approval';
import { drawProof, planProofs } from '../../../domain/campaigns/proofs';
import { startRun } from '../../../domain/campaigns/start';
import { rowReport } from './row-report';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';
import { stepsOf } from './campaign-steps';

const SAMPLE = 3;
const MAX_PROOFS_SHOWN = 12;

const addressCount = (audience: unknown): number | undefined =>
  isPlainObject(audience) && Array.isArray(audience.address_ids) ? audience.address_ids.length : undefined;

async function list({ services, scope, query }: DashboardRequest): Promise<PageAnswer> {
  const found = await services.objects.list(scope, campaigns.name, { limit: 50, after: query.after || undefined });
  return {
    view: 'campaigns',
    title: 'Campaigns',
    nav: 'campaigns',
    data: {
      rows: found.data.map((c) => ({
        id: c.id,
        name: c.name,
        status: c.status,
        approval: approvalOf(c)?.status ?? 'not required',
        date: c.date_created,
      })),
      next: found.next,
    },
  };
}

async function campaignOf({ services, scope, params }: DashboardRequest) {
  const stored = await services.objects.get(scope, campaigns.name, params.id);
  if (!stored) throw new PageNotFound();
  return (await withCreatives(services, scope, [stored]))[0];
}

async function show(request: DashboardRequest, problem?: string): Promise<PageAnswer> {
  const { services, scope } = request;
  const campaign = await campaignOf(request);
  const [proofs, runs] = await Promise.all([
    planProofs(services, scope, campaign.id, SAMPLE).catch(() => []),
    services.objects.list(scope, campaignRuns.name, {
      limit: 20,
      parent: campaign.id,
      sort: { column: 'date_created', direction: 'desc' },
    }),
  ]);
  const upload = Array.isArray(campaign.uploads) ? campaign.uploads[0] : undefined;
  const report = await rowReport(request, upload);
  const creatives = Array.isArray(campaign.creatives) ? campaign.creatives : [];
  const recipients =
    upload && typeof upload === 'object'
      ? Number(Reflect.get(upload, 'validatedMailpieces') ?? 0)
      : addressCount(campaign.audience);
  return {
    view: 'campaign',
    title: `Campaign ${String(campaign.name)}`,
    nav: 'campaigns',
    status: problem ? 422 : 200,
    data: {
      campaign,
      problem,
      steps: stepsOf(campaign.id, 'review'),
      approval: approvalOf(campaign),
      upload,
      report,
      creatives,
      recipients,
      pieces: typeof recipients === 'number' ? recipients * creatives.length : undefined,
      // at most as many as the previewer queues at once
      proofs: proofs.slice(0, MAX_PROOFS_SHOWN).map((p, index) => ({
        ...p,
        src: `/dashboard/campaigns/${campaign.id}/proofs/${index}.png`,
        alt: `Proof of ${p.creative_id} ${p.side} for ${p.recipient}`,
      })),
      runs: runs.data,
      paused: campaign.status === 'paused',
    },
  };
}

async function proofImage(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, ctx } = request;
  const index = Number(params.n.replace(/\.png$/, ''));
  const planned = await planProofs(services, scope, params.id, SAMPLE).catch(() => []);
  if (!Number.isInteger(index) || !planned[index]) throw new PageNotFound();
  const proof = await drawProof(services, scope, planned[index]);
  if (!proof.png) throw new PageNotFound();
  ctx.set('Cache-Control', 'private, no-store');
  ctx.set(
    'Content-Security-Policy',
    "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
  );
  ctx.type = 'image/png';
  ctx.body = proof.png;
  return { stream: true };
}

/** Runs `act`; an ApiError (a refused approval, send or change) is shown on the campaign's page. */
async function acting(request: DashboardRequest, act: () => Promise<string>): Promise<PageAnswer> {
  try {
    const notice = await act();
    return { redirect: `/dashboard/campaigns/${request.params.id}`, notice };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) throw new PageNotFound();
    return show(request, error.message);
  }
}

const decide = (decision: 'approved' | 'rejected') => (request: DashboardRequest) =>
  acting(request, async () => {
    const by = (request.form.by ?? '').trim();
    if (!by || by.length > 200) throw new ApiError('invalid', 'Say who you are (at most 200 characters).', 422);
    const reason = (request.form.reason ?? '').trim().slice(0, 1_000) || undefined;
    await decideApproval(request.services, request.scope, request.params.id, {
      decision,
      by: `${by} (dashboard)`,
      reason,
    });
    return decision === 'approved' ? 'campaign_approved' : 'campaign_rejected';
  });

const send = (request: DashboardRequest) =>
  acting(request, async () => {
    const campaign = await campaignOf(request);
    await startRun(request.services, request.scope, campaign, { trigger: 'manual' });
    return 'campaign_sent';
  });

const setStatus = (status: 'paused' | 'scheduled') => (request: DashboardRequest) =>
  acting(request, async () => {
    validate(campaignOperations.update.body, { status });
    const changed = await request.services.objects.transition(request.scope, campaigns.name, request.params.id, {
      change: (current) => ({
        ...current,
        status,
        date_modified: new Date().toISOString(),
      }),
    });
    if (!changed) throw new PageNotFound();
    return status === 'paused' ? 'campaign_paused' : 'campaign_resumed';
  });

export const campaignPages = [
  page('GET', '/campaigns', list),
  page('GET', '/campaigns/{id}', (request) => show(request)),
  page('GET', '/campaigns/{id}/proofs/{n}', proofImage),
  page('POST', '/campaigns/{id}/approve', decide('approved')),
  page('POST', '/campaigns/{id}/reject', decide('rejected')),
  page('POST', '/campaigns/{id}/send', send),
  page('POST', '/campaigns/{id}/pause', setStatus('paused')),
  page('POST', '/campaigns/{id}/resume', setStatus('scheduled')),
];
