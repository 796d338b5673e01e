// The steps of building a campaign, as the vendor's dashboard has them: settings, audience, creatives,
// review. Each builder page shows them, the current one marked, the later ones links once the
// campaign exists.
const STEPS = [
  { name: 'settings', label: 'Settings', path: 'settings' },
  { name: 'audience', label: 'Audience', path: 'audience' },
  { name: 'creatives', label: 'Creatives', path: 'creatives/new' },
  { name: 'review', label: 'Review', path: '' },
] as const;

export type StepName = (typeof STEPS)[number]['name'];

export function stepsOf(campaignId: string | undefined, current: StepName) {
  return STEPS.map((step, index) => ({
    number: index + 1,
    label: step.label,
    current: step.name === current,
    href:
      campaignId === undefined ? undefined : `/dashboard/campaigns/${campaignId}${step.path ? `/${step.path}` : ''}`,
  }));
}
