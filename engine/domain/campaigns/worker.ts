// The campaign side of the workers: runs of campaigns, as durable jobs, and the cron scheduler that starts them.
import type { Services } from '../services';
import { CAMPAIGN_RUN, type CampaignRunData } from '../../platform/jobs/names';
import { runCampaign } from './run';
import { startScheduler, type Scheduler } from './scheduler';
import { workFileRemovals } from './delete';

// A run job's lease (CAMPAIGN_RUN_LEASE_MS) covers its budget (run.ts) and a margin. A process killed
// mid-run leaves its job to be taken again when the lease runs out; the recorded recipients make that
// safe, and a worker that outlived its lease is refused by them too.

/** Works campaign runs and starts this process's scheduler (which fires cron ticks); stop() stops the scheduler. */
export async function workCampaignRuns(services: Services): Promise<Scheduler> {
  await services.jobs.work<CampaignRunData>(
    CAMPAIGN_RUN,
    { concurrency: 2, leaseMs: services.config.campaignRunLeaseMs },
    (job) => runCampaign(services, job),
  );
  await workFileRemovals(services);
  return startScheduler(services);
}
