// The campaign side of the workers: runs of campaigns, as durable jobs.
import type { Services } from '../../services';
import { CAMPAIGN_RUN, type CampaignRunData } from '../../jobs/names';
import { runCampaign } from './run';

/**
 * A run's lease: long enough for a large run to make progress between leases, short enough that a run
 * whose process died resumes within minutes (its recorded recipients make resuming safe).
 */
const RUN_LEASE_MS = 10 * 60_000;

export async function workCampaignRuns(services: Services): Promise<void> {
  await services.jobs.work<CampaignRunData>(CAMPAIGN_RUN, { concurrency: 2, leaseMs: RUN_LEASE_MS }, (job) =>
    runCampaign(services, job),
  );
}
