// When a piece is sent, when it is expected, and until when it may be cancelled.
import { isoInstant } from '../../catalog/dates';
import { addBusinessDays } from './business-days';

/** docs/compat-notes.md: First Class +5 business days (+6 more abroad); Standard +10. */
export function expectedDeliveryDate(sendDate: string, mailType: string, abroad: boolean): string {
  const days = mailType === 'usps_standard' ? 10 : abroad ? 11 : 5;
  return addBusinessDays(new Date(sendDate), days);
}

/** The stored send_date: the one given (in UTC, ms precision), else the creation time. */
export function sendDateOf(given: string | null | undefined, created: string): string {
  if (given === undefined || given === null) return created;
  const instant = isoInstant(given);
  // validation has already refused anything unparseable
  return instant === undefined ? created : new Date(instant).toISOString();
}

/**
 * The last instant the piece may be cancelled: its send_date when it was scheduled, else the end of
 * the account's cancellation window after creation (spec: a send_date overrides the window).
 */
export function cancelDeadline(piece: { send_date?: unknown; date_created: string }, windowMinutes: number): number {
  const created = Date.parse(piece.date_created);
  const send = Date.parse(String(piece.send_date ?? piece.date_created));
  return send > created ? send : created + windowMinutes * 60_000;
}
