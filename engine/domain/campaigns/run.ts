// A campaign run: started by a send (or a schedule's tick) as a `campaign_run` object committed with
// its `campaign.run_started` event and its job (./start.ts); the job then makes one piece per recipient
// and creative, each committed with its recipient's row (store/run-recipients.ts) and the person it
// mails (store/campaign-mailings.ts), and settles the run `completed` with `campaign.run_completed`, or,
// once its last attempt fails, `failed` with `campaign.run_failed`. A recipient already recorded is
// passed over, so an attempt after a crash or a second process on the same job never makes a piece
// twice; a person met again in the run is skipped as a duplicate, and a person an earlier run of the
// campaign mailed is skipped unless the campaign's `remail_after_days` have passed since.
import { eventOf } from '../../catalog';
import { campaigns, type CAMPAIGN_STATUSES } from '../../catalog/campaigns';
import { campaignRuns } from '../../catalog/campaign-runs';
import { uploads } from '../../catalog/audience-uploads';
import type { Services } from '../services';
import type { Scope } from '../../store/objects';
import { mailingKey, type EarlierMailing } from '../../store/campaign-mailings';
import { CAMPAIGN_RUN, CAMPAIGN_RUN_OPTIONS, type CampaignRunData } from '../../platform/jobs/names';
import type { Job } from '../../platform/jobs/types';
import { nowIso } from '../../base/time';
import { audienceOf, sendersOf } from './audience';
import { creativesOf, kindOf, pieceBody } from './creatives';
import { filesOfCreatives } from './creative-files';
import { CampaignGone, RunPass } from './pass';
import { notReady } from './upload-audience';
import { cancelCampaignPieces } from './cancel-pieces';
import { rowsOf } from '../audiences/stored-rows';
import { messageOf } from '../../base/thrown';
import { remailCutoff } from './remail';
import { isAgentDriven } from '../agents/driven';

/**
 * How long one job makes pieces before handing the rest of the run to the next: a third of its lease
 * (CAMPAIGN_RUN_LEASE_MS, worker.ts), the rest a margin for the piece in flight and the run's settling,
 * so a killed process's run resumes once that lease has run out.
 */
export const runBudgetMs = (leaseMs: number) => Math.max(1_000, Math.floor(leaseMs / 3));

/** The job: makes the run's missing pieces (or as many as its budget allows), then settles it. */
export async function runCampaign(services: Services, job: Job<CampaignRunData>): Promise<void> {
  const { data } = job;
  const scope: Scope = { accountId: data.account, mode: data.mode };
  try {
    await makePieces(services, scope, data, job.signal);
  } catch (error) {
    // deleted mid-run: what the run made before the pass saw it is cancelled as the delete cancelled the rest
    if (error instanceof CampaignGone) {
      await cancelCampaignPieces(services, scope, data.campaign);
      return;
    }
    if (job.lastAttempt) await settleRun(services, scope, data, { failure: messageOf(error) });
    throw error;
  }
}

async function makePieces(services: Services, scope: Scope, data: CampaignRunData, signal: AbortSignal) {
  const run = await services.objects.get(scope, campaignRuns.name, data.run, { parent: data.campaign });
  if (run?.status !== 'running') return; // settled by an earlier attempt, or deleted with its campaign
  const campaign = await services.objects.get(scope, campaigns.name, data.campaign);
  if (!campaign) return settleRun(services, scope, data, { failure: 'the campaign was deleted' });
  const account = await services.accounts.byId(scope.accountId);
  if (!account) return settleRun(services, scope, data, { failure: 'the account no longer exists' });
  const creatives = await creativesOf(services, scope, campaign.id);
  if (creatives.length === 0) return settleRun(services, scope, data, { failure: 'the campaign has no creatives' });
  // read once a job: every piece names its creative's stored files
  const files = await filesOfCreatives(services, scope, creatives);
  const upload =
    typeof run.upload_id === 'string'
      ? await services.objects.get(scope, uploads.name, run.upload_id, { parent: campaign.id })
      : undefined;
  if (typeof run.upload_id === 'string' && !upload)
    return settleRun(services, scope, data, { failure: `the upload ${run.upload_id} was deleted` });
  const unready = upload && notReady(upload);
  if (unready) return settleRun(services, scope, data, { failure: unready });
  await setCampaignStatus(services, scope, campaign.id, 'running');
  // the campaign's own senders are never its recipients, by person: the same office entered again is them
  const senders = await sendersOf(services, scope, creatives);
  const members = upload ? [] : await audienceOf(services, scope, campaign, run, senders);
  const recipients = upload ? Number(upload.totalMailpieces) : members.length;
  const earlier = await services.store.campaignMailings.earlierMailings(
    scope,
    campaign.id,
    run.id,
    remailCutoff(campaign),
  );
  const mailedBefore = (creativeId: string, key: string): string | undefined => {
    const before: EarlierMailing | undefined = earlier.get(mailingKey(creativeId, key));
    return before && `already mailed by this campaign on ${before.date.slice(0, 10)} (${before.pieceId})`;
  };
  await showProgress(services, scope, data, recipients);
  const recorded = await services.store.runRecipients.recordedRecipients(run.id);
  const budget = runBudgetMs(services.config.campaignRunLeaseMs);
  // an agent-driven campaign's pieces are held to the agent limits (its start took their places)
  const pass = new RunPass(
    services,
    scope,
    account.settings,
    campaign,
    recorded,
    signal,
    budget,
    isAgentDriven(campaign),
  );
  // a long run goes on in a job of its own, so no lease has to cover a whole run
  const handOn = async () => {
    await showProgress(services, scope, data, recipients);
    await services.jobs.send(CAMPAIGN_RUN, data, CAMPAIGN_RUN_OPTIONS);
  };
  if (upload) {
    for await (const { row, parts, problem, duplicate, personKey: key } of rowsOf(services, upload)) {
      for (const creative of creatives) {
        const recipient = { runId: run.id, addressId: upload.id, rowNumber: row.rowNumber, creativeId: creative.id };
        if (pass.done(recipient)) continue;
        if (await pass.spent()) return handOn();
        const before = key && mailedBefore(creative.id, key);
        const sender = key && senders.get(key);
        if (problem !== undefined) await pass.skip(recipient, problem, duplicate ? 'duplicate' : 'refused');
        else if (sender) await pass.skip(recipient, senderReason(sender));
        else if (before) await pass.skip(recipient, before, 'already_mailed');
        else {
          const body = pieceBody(creative, campaign, parts.to, undefined, parts, files.get(creative.id));
          await pass.piece(recipient, kindOf(creative.resource_type), body, key);
        }
      }
    }
  } else {
    // the first address naming a person is the one mailed; later ones are that person's duplicates
    const firstOf = new Map<string, string>();
    for (const { id: addressId, key, sender } of members) {
      const first = key === undefined ? undefined : firstOf.get(key);
      if (key !== undefined && first === undefined) firstOf.set(key, addressId);
      for (const creative of creatives) {
        const recipient = { runId: run.id, addressId, creativeId: creative.id };
        if (pass.done(recipient)) continue;
        if (await pass.spent()) return handOn();
        const before = key && mailedBefore(creative.id, key);
        if (sender) await pass.skip(recipient, senderReason(sender));
        else if (first) await pass.skip(recipient, `duplicate of ${first}: the same person and address`, 'duplicate');
        else if (before) await pass.skip(recipient, before, 'already_mailed');
        else {
          const body = pieceBody(creative, campaign, addressId, undefined, undefined, files.get(creative.id));
          await pass.piece(recipient, kindOf(creative.resource_type), body, key);
        }
      }
    }
  }
  await pass.settled();
  await settleRun(services, scope, data, { recipients });
}

/** Why a recipient who is the campaign's own sender gets no piece. */
const senderReason = (sender: string) =>
  `the campaign's sender: the same person and address as ${sender}, a creative's from`;

/**
 * Settles a running run as completed (with its tally) or failed, with its event; the campaign follows:
 * `completed` or `failed` as its run did (a scheduled one stays `scheduled`: its next tick runs again).
 */
async function settleRun(
  services: Services,
  scope: Scope,
  data: CampaignRunData,
  outcome: { recipients?: number; failure?: string },
): Promise<void> {
  const tally = await services.store.runRecipients.tallyRun(data.run);
  const failed = outcome.failure !== undefined;
  await services.objects
    .transition(scope, campaignRuns.name, data.run, {
      parent: data.campaign,
      refuse: (current) => (current.status === 'running' ? undefined : new SettledAlready()),
      change: (current) => ({
        ...current,
        status: failed ? 'failed' : 'completed',
        recipients: outcome.recipients ?? current.recipients,
        pieces_created: tally.pieces,
        skipped: tally.skipped,
        skipped_count: tally.skippedCount,
        failure_reason: outcome.failure ?? null,
        date_completed: nowIso(),
      }),
      events: [eventOf(campaigns, failed ? 'run_failed' : 'run_completed')],
    })
    .then(() => services.metrics.campaignPieces.inc(tally.pieces))
    .catch((error: unknown) => {
      if (!(error instanceof SettledAlready)) throw error;
    });
  // whatever it was before (a run can fail before it begins: no creatives, its upload gone); a paused
  // or cancelled campaign stays so (setCampaignStatus)
  const campaign = await services.objects.get(scope, campaigns.name, data.campaign);
  if (campaign)
    await setCampaignStatus(
      services,
      scope,
      campaign.id,
      campaign.schedule ? 'scheduled' : failed ? 'failed' : 'completed',
    );
}

/** What a running run has done so far, shown on it: at its start and each time it hands on. */
async function showProgress(services: Services, scope: Scope, data: CampaignRunData, recipients: number) {
  const tally = await services.store.runRecipients.tallyRun(data.run);
  await services.objects
    .transition(scope, campaignRuns.name, data.run, {
      parent: data.campaign,
      refuse: (current) => (current.status === 'running' ? undefined : new SettledAlready()),
      change: (current) => ({
        ...current,
        recipients,
        pieces_created: tally.pieces,
        skipped: tally.skipped,
        skipped_count: tally.skippedCount,
      }),
    })
    .catch((error: unknown) => {
      if (!(error instanceof SettledAlready)) throw error;
    });
}

/** A run settled by another attempt stays as that attempt left it. */
class SettledAlready extends Error {}

/** Moves the campaign's status, unless it was paused or cancelled meanwhile (the customer's word stands). */
async function setCampaignStatus(
  services: Services,
  scope: Scope,
  id: string,
  status: (typeof CAMPAIGN_STATUSES)[number],
): Promise<void> {
  await services.objects.transition(scope, campaigns.name, id, {
    change: (current) =>
      current.status === 'paused' || current.status === 'cancelled' || current.status === status
        ? current
        : { ...current, status, is_draft: false },
  });
}
