// Starting a run, once. A campaign without a schedule is sent once (unless it says it is `recurring`):
// a second send is refused while its run goes on or after it completed (a run that failed may be sent again; the new run mails only
// those the failed one did not). A campaign has at most one running run, in any number of processes:
// a partial unique index over running runs (migrations/015) refuses a second, and a one-shot campaign's
// sends take ids derived from it and its failed runs, so two sends at once race for one id. An AI
// agent's send, and any run of a campaign an agent drove, is held to the agent limits (./agent-runs.ts).
import { createHash } from 'node:crypto';
import { ApiError } from '../../base/errors';
import { eventOf } from '../../catalog';
import { campaigns } from '../../catalog/campaigns';
import { campaignRuns } from '../../catalog/campaign-runs';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { CAMPAIGN_RUN, CAMPAIGN_RUN_OPTIONS, type CampaignRunData } from '../../platform/jobs/names';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { notReady, uploadOf } from './upload-audience';
import { approvalOf } from './approval';
import { agentRunTakes } from './agent-runs';
import { isAgentDriven, markAgentDriven } from '../agents/driven';
import type { CounterTake } from '../../store/commit';

export interface RunStart {
  trigger: 'manual' | 'schedule';
  /** the tick a scheduled run is for */
  scheduledFor?: string;
  claim?: IdempotencyClaim;
  /** a scheduled run's id, derived from its campaign and tick (scheduler.ts): one run per tick */
  id?: string;
  /** an AI agent sends: the campaign becomes agent-driven, and this run is held to the agent limits */
  agent?: boolean;
}

/** A run of the campaign is in progress: refused, whoever asked (a send, a tick). */
export class RunInProgress extends ApiError {
  constructor(campaignId: string, runId?: string) {
    super(
      'conflict',
      `campaign ${campaignId} has a run in progress${runId ? ` (${runId})` : ''}; send it again once that run has ended`,
      422,
    );
  }
}

/** The campaign's running run, if it has one (one indexed read, however many runs it has had). */
async function runningRun(services: Services, scope: Scope, campaignId: string): Promise<ApiObject | undefined> {
  const page = await services.objects.list(scope, campaignRuns.name, {
    limit: 1,
    parent: campaignId,
    filters: [{ column: 'status', match: 'equals', value: 'running' }],
  });
  return page.data[0];
}

/** Every run of the campaign, oldest first (a one-shot campaign has a few: its failed ones and one more). */
async function runsOf(services: Services, scope: Scope, campaignId: string): Promise<ApiObject[]> {
  const runs: ApiObject[] = [];
  let after: string | undefined;
  do {
    const page = await services.objects.list(scope, campaignRuns.name, {
      limit: 100,
      after,
      parent: campaignId,
      sort: { column: 'date_created', direction: 'asc' },
    });
    runs.push(...page.data);
    after = page.next;
  } while (after);
  return runs;
}

const onceRunId = (campaignId: string, failedRuns: number) =>
  `${campaignRuns.idPrefix}_${createHash('sha256').update(`${campaignId}#once#${failedRuns}`).digest('hex').slice(0, 20)}`;

/** Refuses a start the campaign's runs forbid; the id the run takes (derived for a one-shot send). */
async function admit(services: Services, scope: Scope, campaign: ApiObject, start: RunStart): Promise<string> {
  const running = await runningRun(services, scope, campaign.id);
  if (running) throw new RunInProgress(campaign.id, running.id);
  if (start.id) return start.id;
  if (campaign.schedule || campaign.recurring === true) return newId(campaignRuns.idPrefix);
  const runs = await runsOf(services, scope, campaign.id);
  const sent = runs.find((r) => r.status === 'completed');
  if (sent)
    throw new ApiError(
      'conflict',
      `campaign ${campaign.id} was sent already (run ${sent.id}); a campaign without a schedule is sent once`,
      422,
    );
  return onceRunId(campaign.id, runs.filter((r) => r.status === 'failed').length);
}

/** Starts a run of the campaign: the run, its event and its job commit together. */
export async function startRun(services: Services, scope: Scope, campaign: ApiObject, start: RunStart) {
  if (campaign.status === 'cancelled')
    throw new ApiError('invalid', `campaign ${campaign.id} is cancelled and sends nothing`, 422);
  if (approvalOf(campaign)?.status === 'rejected')
    throw new ApiError('invalid', `campaign ${campaign.id} was rejected; approve it before sending it`, 422);
  // the audience is pinned now: an upload deleted or added mid-run changes no run under way
  const upload = await uploadOf(services, scope, campaign.id);
  const unready = upload && notReady(upload);
  // a tick still makes its run, which fails saying why; a send is refused at once
  if (unready && start.trigger === 'manual') throw new ApiError('invalid', unready, 422);
  if (start.agent) await markAgentDriven(services.objects, scope, campaign.id);
  const id = await admit(services, scope, campaign, start);
  const now = nowIso();
  const run: ApiObject = {
    id,
    campaign_id: campaign.id,
    trigger: start.trigger,
    scheduled_for: start.scheduledFor ?? null,
    upload_id: upload?.id ?? null,
    status: 'running',
    recipients: 0,
    pieces_created: 0,
    skipped: [],
    skipped_count: 0,
    failure_reason: null,
    date_completed: null,
    date_created: now,
    date_modified: now,
    object: campaignRuns.object,
  };
  const data: CampaignRunData = { run: run.id, campaign: campaign.id, account: scope.accountId, mode: scope.mode };
  const stillThere = {
    kind: campaigns.name,
    id: campaign.id,
    refusal: () => new ApiError('not_found', 'campaign not found', 404),
  };
  let takes: CounterTake[] | undefined;
  if (start.agent === true || isAgentDriven(campaign))
    try {
      // before it starts: its whole audience against the day's agent places, taken in its commit
      takes = await agentRunTakes(services, scope, campaign, run, upload);
    } catch (error) {
      if (!(error instanceof ApiError) || start.trigger !== 'schedule') throw error;
      // a tick the limits refuse makes its run, failed saying why, rather than trying again each pass
      const failed = { ...run, status: 'failed', failure_reason: error.message, date_completed: now };
      return services.objects.insert(scope, campaignRuns.name, failed, {
        parent: campaign.id,
        events: [eventOf(campaigns, 'run_failed')],
        requires: [stillThere],
      });
    }
  try {
    return await services.objects.insert(scope, campaignRuns.name, run, {
      parent: campaign.id,
      claim: start.claim,
      events: [eventOf(campaigns, 'run_started')],
      jobs: [services.jobs.enqueueWith(CAMPAIGN_RUN, data, CAMPAIGN_RUN_OPTIONS)],
      takes,
      requires: [stillThere],
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // a send racing this one committed first: its run holds the campaign's one place, or took this id
    const running = await runningRun(services, scope, campaign.id);
    if (running) throw new RunInProgress(campaign.id, running.id);
    if (await services.objects.get(scope, campaignRuns.name, id, { parent: campaign.id }))
      throw new ApiError(
        'conflict',
        `campaign ${campaign.id} was sent by another request at the same time (run ${id}); a campaign without a schedule is sent once`,
        422,
      );
    throw error;
  }
}
