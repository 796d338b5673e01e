// A campaign an AI agent created, changed, filled (a creative, an upload or its file) or sent is
// agent-driven: its runs make pieces later, in a worker with no caller, and whoever or whatever starts
// them (a person's send, a scheduled tick) they are held to the agent limits (../campaigns/start.ts).
// The mark is kept on the campaign (`agent_driven`, shown as our extension) and never taken off.
import { campaigns } from '../../catalog/campaigns';
import type { ObjectStore, Scope } from '../../store/objects';

/** Whether the campaign's runs are held to the agent limits. */
export const isAgentDriven = (campaign: object): boolean =>
  'agent_driven' in campaign && campaign.agent_driven === true;

/** Marks the campaign agent-driven (before the agent's change: a change that then fails leaves it marked). */
export async function markAgentDriven(objects: ObjectStore, scope: Scope, campaignId: string): Promise<void> {
  const campaign = await objects.get(scope, campaigns.name, campaignId);
  if (!campaign || isAgentDriven(campaign)) return;
  await objects.transition(scope, campaigns.name, campaignId, {
    change: (current) => (isAgentDriven(current) ? current : { ...current, agent_driven: true }),
  });
}
