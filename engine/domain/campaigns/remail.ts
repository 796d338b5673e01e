// When a campaign may mail a person again (`remail_after_days`): read by a run and by the count an
// agent-driven run takes before it starts.
import type { ApiObject } from '../../store/objects';

/** Mailings older than this may be mailed again (`remail_after_days`); none when the campaign never re-mails. */
export function remailCutoff(campaign: ApiObject): string | undefined {
  const days = campaign.remail_after_days;
  return typeof days === 'number' ? new Date(Date.now() - days * 86_400_000).toISOString() : undefined;
}
