// What holds an AI agent's mail (a key marked as an agent's, or a request through the MCP server):
// live mail only when the account allows it, at most so many live pieces a UTC day (a counter taken in
// the piece's own commit, so a restart or a second process counts on), no check above the account's
// largest amount, and a send date no earlier than the end of the cancellation window, so a person can
// still stop what an agent sent.
import { ApiError } from '../../base/errors';
import type { Resource } from '../../catalog/types';
import type { CounterTake } from '../../store/commit';
import type { Scope } from '../../store/objects';
import type { Settings } from '../accounts/settings';

/** The counter of an account's live agent pieces on one UTC day (a period is a month: the day is in the name). */
export const agentPiecesOn = (scope: Scope, day: string) => ({
  accountId: scope.accountId,
  name: `agent_live_pieces ${day}`,
  period: day.slice(0, 7),
});

export interface AgentPiece {
  /** the body with its send date moved to the end of the cancellation window when it was earlier */
  body: Record<string, unknown>;
  /** the day's place under the account's limit, taken in the piece's commit */
  takes: CounterTake[];
}

/** Refuses what an agent may not mail; otherwise the body to create and the places it takes. */
export function agentPiece(
  scope: Scope,
  settings: Settings,
  resource: Resource,
  body: Record<string, unknown>,
  now: Date,
): AgentPiece {
  if (scope.mode === 'live' && !settings.agents_send_live)
    throw new ApiError(
      'agent_live_mail_not_allowed',
      'AI agents may not send live mail for this account: preview and send in test mode, or have the operator set agents_send_live to true.',
      403,
    );
  if (resource.name === 'checks' && Number(body.amount) > settings.agent_max_check_amount)
    throw new ApiError(
      'agent_limit_reached',
      `An AI agent may send checks of at most ${settings.agent_max_check_amount} dollars; this one is for ${String(body.amount)}.`,
      403,
    );
  const earliest = new Date(now.getTime() + (settings.cancellation_window_minutes + 1) * 60_000);
  const given = typeof body.send_date === 'string' ? Date.parse(body.send_date) : NaN;
  const sendDate = Number.isNaN(given) || given < earliest.getTime() ? earliest.toISOString() : body.send_date;
  const day = now.toISOString().slice(0, 10);
  const takes: CounterTake[] =
    scope.mode === 'live'
      ? [
          {
            counter: agentPiecesOn(scope, day),
            below: settings.agent_pieces_per_day,
            refusal: () =>
              new ApiError(
                'agent_limit_reached',
                `AI agents have sent this account's ${settings.agent_pieces_per_day} live mailpieces for today (UTC); the operator can raise agent_pieces_per_day.`,
                403,
              ),
          },
        ]
      : [];
  return { body: { ...body, send_date: sendDate }, takes };
}
