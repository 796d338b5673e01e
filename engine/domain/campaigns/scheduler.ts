// Cron-driven campaigns. Every engine process that works jobs looks at the scheduled campaigns every
// few seconds and starts a run for the latest tick of each one's cron (read by node-cron in its time
// zone) that came after the campaign last changed: after its previous run settled, its creation, or
// its resumption (ticks while paused are not made up). The run's id is derived from the campaign and
// the tick, so however many processes see a tick, one run commits and the others' inserts are refused;
// a tick missed while every process was down is seen on the next start and fires once.
import { createHash } from 'node:crypto';
import type { ScheduledTask } from 'node-cron';
import { ApiError } from '../../base/errors';
import { nodeCron } from '../../base/packages';
import { campaignRuns } from '../../catalog/campaign-runs';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import { RunInProgress, startRun } from './start';
import { pollLoop } from '../../base/poll-loop';

export interface Schedule {
  cron: string;
  time_zone?: string;
}

/** A campaign's schedule (campaigns read by a generic handler are not typed by their kind). */
export const isSchedule = (value: unknown): value is Schedule =>
  typeof value === 'object' && value !== null && 'cron' in value && typeof value.cron === 'string';

/** How far back a missed tick is still made up; older ones are let go. */
const CATCH_UP_MS = 7 * 24 * 3_600_000;

/** Refuses a cron expression node-cron cannot read or a time zone the runtime does not know (422). */
export function assertSchedule(schedule: Schedule | null | undefined): void {
  if (!schedule) return;
  if (!nodeCron().validate(schedule.cron))
    throw new ApiError('invalid', `schedule.cron ${schedule.cron} is not a valid cron expression`, 422);
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: schedule.time_zone ?? 'UTC' });
  } catch {
    throw new ApiError('invalid', `schedule.time_zone ${schedule.time_zone} is not a known time zone`, 422);
  }
}

/** The id of the run of `campaign` for `tick`: the same in every process, so a tick commits one run. */
export function tickRunId(campaign: string, tick: Date): string {
  const digest = createHash('sha256').update(`${campaign}@${tick.toISOString()}`).digest('hex');
  return `${campaignRuns.idPrefix}_${digest.slice(0, 20)}`;
}

/** node-cron's reading of one schedule, kept per campaign while its expression stays the same. */
interface Matcher {
  key: string;
  task: ScheduledTask;
  /** seconds are a field of the expression: ticks are looked for second by second */
  stepMs: number;
  /** every instant up to this one has been looked at already */
  checkedUpTo: number;
}

function matcherFor(schedule: Schedule): Matcher {
  // created, never started: used only to read the expression in its time zone
  const task = nodeCron().createTask(schedule.cron, () => undefined, { timezone: schedule.time_zone ?? 'UTC' });
  const seconds = schedule.cron.trim().split(/\s+/).length === 6;
  return {
    key: `${schedule.cron}|${schedule.time_zone ?? 'UTC'}`,
    task,
    stepMs: seconds ? 1_000 : 60_000,
    checkedUpTo: 0,
  };
}

/** Readings kept for nextTick, by expression and time zone (node-cron registers every task it makes). */
const readings = new Map<string, ScheduledTask>();
const READINGS_KEPT = 500;

/** When the schedule next fires after now, as an ISO instant (null if it never does). */
export function nextTick(schedule: Schedule): string | null {
  const key = `${schedule.cron}|${schedule.time_zone ?? 'UTC'}`;
  let task = readings.get(key);
  if (!task) {
    task = matcherFor(schedule).task;
    readings.set(key, task);
    if (readings.size > READINGS_KEPT) {
      const [oldestKey, oldest] = readings.entries().next().value as [string, ScheduledTask];
      readings.delete(oldestKey);
      void oldest.destroy();
    }
  }
  const [next] = task.getNextRuns(1);
  return next ? next.toISOString() : null;
}

/** The latest tick at or before `now` and after `after` not looked at before, or undefined. */
function latestTick(matcher: Matcher, now: number, after: number): Date | undefined {
  const floor = Math.max(after, matcher.checkedUpTo, now - CATCH_UP_MS);
  for (let at = now - (now % matcher.stepMs); at > floor; at -= matcher.stepMs)
    if (matcher.task.match(new Date(at))) return new Date(at);
  return undefined;
}

export interface Scheduler {
  stop(): Promise<void>;
}

export function startScheduler(services: Services, options: { pollMs?: number } = {}): Scheduler {
  const pollMs = options.pollMs ?? 2_000;
  const matchers = new Map<string, Matcher>();

  const fire = async (scope: Scope, campaign: ApiObject, tick: Date) => {
    const id = tickRunId(campaign.id, tick);
    if (await services.objects.get(scope, campaignRuns.name, id, { includeDeleted: true })) return;
    try {
      await startRun(services, scope, campaign, { trigger: 'schedule', scheduledFor: tick.toISOString(), id });
    } catch (error) {
      // a tick while the previous run still goes on is let go, as node-cron's noOverlap does
      if (error instanceof RunInProgress) return;
      // another process committed this tick's run first
      if (await services.objects.get(scope, campaignRuns.name, id, { includeDeleted: true })) return;
      throw error;
    }
  };
  const pass = async () => {
    const now = Date.now();
    const seen = new Set<string>();
    for (const { scope, campaign } of await services.store.campaignSchedules.scheduledCampaigns()) {
      const schedule: Schedule | null = campaign.schedule;
      if (!schedule) continue;
      seen.add(campaign.id);
      let matcher = matchers.get(campaign.id);
      if (matcher?.key !== `${schedule.cron}|${schedule.time_zone ?? 'UTC'}`) {
        matcher = matcherFor(schedule);
        matchers.set(campaign.id, matcher);
      }
      const tick = latestTick(matcher, now, Date.parse(campaign.date_modified));
      if (tick) await fire(scope, campaign, tick);
      // only once its run is committed: a pass that failed looks at the same ticks again
      matcher.checkedUpTo = now;
    }
    for (const id of matchers.keys()) if (!seen.has(id)) matchers.delete(id);
  };
  // a failed pass is tried again at the usual pace: its ticks are still due
  return pollLoop(pass, {
    pollMs,
    failedMs: pollMs,
    onError: (error) =>
      process.stderr.write(
        `${JSON.stringify({ level: 'error', where: 'campaign scheduler', error: String(error) })}\n`,
      ),
  });
}
