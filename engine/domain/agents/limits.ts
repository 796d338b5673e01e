// What holds an AI agent's mail (a key marked as an agent's, or a request through the MCP server):
// live mail only when the account allows it, at most so many live pieces a UTC day (a counter taken in
// the piece's own commit, or for a campaign run its whole audience in the run's commit, so a restart or
// a second process counts on), no check above the account's largest amount, and a send date no earlier
// than the end of the cancellation window, so a person can still stop what an agent sent.
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

/** Today's counter (UTC). */
export const agentPiecesToday = (scope: Scope, now: Date) => agentPiecesOn(scope, now.toISOString().slice(0, 10));

/** Refuses live mail an agent may not send (the account has not set agents_send_live). */
export function assertAgentMayMailLive(scope: Scope, settings: Settings): void {
  if (scope.mode === 'live' && !settings.agents_send_live)
    throw new ApiError(
      'agent_live_mail_not_allowed',
      'AI agents may not send live mail for this account: preview and send in test mode, or have the operator set agents_send_live to true.',
      403,
    );
}

/** The send date of an agent's piece: as given, but no earlier than the end of the cancellation window. */
export function heldSendDate(given: unknown, settings: Settings, now: Date): unknown {
  const earliest = new Date(now.getTime() + (settings.cancellation_window_minutes + 1) * 60_000);
  const asked = typeof given === 'string' ? Date.parse(given) : NaN;
  return Number.isNaN(asked) || asked < earliest.getTime() ? earliest.toISOString() : given;
}

export interface AgentPiece {
  /** the body with its send date moved to the end of the cancellation window when it was earlier */
  body: Record<string, unknown>;
  /** the day's place under the account's limit, taken in the piece's commit */
  takes: CounterTake[];
}

/**
 * Refuses what an agent may not mail; otherwise the body to create and the places it takes. A piece of
 * an agent-driven campaign's run (`counted` false) takes none: its run took the places of its audience.
 */
export function agentPiece(
  scope: Scope,
  settings: Settings,
  resource: Resource,
  body: Record<string, unknown>,
  now: Date,
  counted = true,
): AgentPiece {
  assertAgentMayMailLive(scope, settings);
  if (resource.name === 'checks' && Number(body.amount) > settings.agent_max_check_amount)
    throw new ApiError(
      'agent_limit_reached',
      `An AI agent may send checks of at most ${settings.agent_max_check_amount} dollars; this one is for ${String(body.amount)}.`,
      403,
    );
  const takes: CounterTake[] =
    scope.mode === 'live' && counted
      ? [
          {
            counter: agentPiecesToday(scope, now),
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
  return { body: { ...body, send_date: heldSendDate(body.send_date, settings, now) }, takes };
}

/** The refusal of a send whose audience is past what is left of the day's agent pieces. */
const pastTheDay = (pieces: number, left: string, settings: Settings) =>
  new ApiError(
    'agent_limit_reached',
    `This send would mail ${pieces} pieces; only ${left} of today's ${settings.agent_pieces_per_day} AI agent live mailpieces (UTC) remain. Send it tomorrow, narrow its audience, or have the operator raise agent_pieces_per_day.`,
    403,
  );

/**
 * What an agent-driven campaign's run takes before it starts (live mode): refused without
 * agents_send_live, or when its `pieces` would pass the `used` places of the day; otherwise all of
 * them at once, in the run's commit (which refuses too if another send took them meanwhile).
 */
export function agentRunPlaces(
  scope: Scope,
  settings: Settings,
  pieces: number,
  used: number,
  now: Date,
): CounterTake[] {
  assertAgentMayMailLive(scope, settings);
  if (scope.mode !== 'live' || pieces === 0) return [];
  const left = Math.max(0, settings.agent_pieces_per_day - used);
  if (pieces > left) throw pastTheDay(pieces, String(left), settings);
  return [
    {
      counter: agentPiecesToday(scope, now),
      below: settings.agent_pieces_per_day,
      count: pieces,
      refusal: () => pastTheDay(pieces, `fewer than ${pieces}`, settings),
    },
  ];
}
