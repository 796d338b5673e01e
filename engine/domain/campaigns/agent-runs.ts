// What an agent-driven campaign's run (./start.ts) is held to before it starts, in live mode: refused
// without agents_send_live; its pieces counted as the run would make them (each person of the audience
// once, by each creative that has not mailed them before; an upload's valid rows by each creative) and
// refused with that count past what is left of the day's agent pieces; otherwise those places are
// taken in the run's own commit. A piece the run then cannot make keeps its place: the count is what
// the send asked for, never more than the day allows.
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { CounterTake } from '../../store/commit';
import { mailingKey } from '../../store/campaign-mailings';
import { campaigns } from '../../catalog/campaigns';
import { agentPiecesToday, agentRunPlaces, assertAgentMayMailLive } from '../agents/limits';
import { audienceOf, sendersOf } from './audience';
import { creativesOf } from './creatives';
import { remailCutoff } from './remail';

/** The places of the day the run takes (none in test mode); refuses a run the agent limits forbid. */
export async function agentRunTakes(
  services: Services,
  scope: Scope,
  campaign: ApiObject,
  run: ApiObject,
  upload: ApiObject | undefined,
): Promise<CounterTake[]> {
  const account = await services.accounts.byId(scope.accountId);
  if (!account) return [];
  assertAgentMayMailLive(scope, account.settings);
  if (scope.mode !== 'live') return [];
  const pieces = await piecesOfRun(services, scope, campaign, run, upload);
  const now = new Date();
  const used = await services.store.counters.readCounter(agentPiecesToday(scope, now));
  return agentRunPlaces(scope, account.settings, pieces, used, now);
}

/** How many pieces the run would make, read as the run reads its audience. */
async function piecesOfRun(
  services: Services,
  scope: Scope,
  campaign: ApiObject,
  run: ApiObject,
  upload: ApiObject | undefined,
): Promise<number> {
  const creatives = await creativesOf(services, scope, campaign.id);
  if (creatives.length === 0) return 0;
  if (upload) return Number(upload.validatedMailpieces ?? upload.totalMailpieces ?? 0) * creatives.length;
  const senders = await sendersOf(services, scope, creatives);
  // read again as its kind: the audience is the campaign's as it is now
  const current = await services.objects.get(scope, campaigns.name, campaign.id);
  if (!current) return 0;
  const members = await audienceOf(services, scope, current, { date_created: String(run.date_created) }, senders);
  const earlier = await services.store.campaignMailings.earlierMailings(
    scope,
    campaign.id,
    run.id,
    remailCutoff(campaign),
  );
  const people = new Set<string>();
  let pieces = 0;
  for (const { key, sender } of members) {
    // an address gone, the campaign's own sender, or a person met already: the run skips them
    if (key === undefined || sender !== undefined || people.has(key)) continue;
    people.add(key);
    for (const creative of creatives) if (!earlier.has(mailingKey(creative.id, key))) pieces++;
  }
  return pieces;
}
