// The job ticket: what a print room needs to print, insert and mail one piece, beside its PDF. The
// IMb codes and the tracking number are the ones stored on the piece, which the overlay printed
// (engine/render/overlay), so what the mail stream scans can be matched back to the ticket.
import type { Resource } from '../../catalog/types';
import type { ApiObject } from '../../store/objects';
import { geometryOf } from '../../render/products';
import { imbCodesOf } from '../../render/overlay/imb';
import { overlayPiece } from '../../render/overlay/types';
import { trackingNumberOf } from '../../render/overlay/tracking-number';

export interface JobTicket {
  /** the print job's id (`pjob_…`), which the piece's `production.id` names */
  ticket: string;
  piece_id: string;
  /** the resource (`postcards`, `letters`, ...) and its object name */
  kind: string;
  object: string;
  /** what is printed: the product's size and each artwork side's page size in inches, bleed included */
  product: { size: string; pages: { side: string; width_in: number; height_in: number }[] };
  size: string | null;
  mail_type: string;
  extra_service: string | null;
  color: boolean | null;
  double_sided: boolean | null;
  return_envelope: boolean | null;
  to: unknown;
  from: unknown;
  /** the Intelligent Mail barcode's codes; routing '' (no barcode) abroad */
  imb: { tracking_code: string; routing_code: string };
  /** certified and registered letters only */
  tracking_number: string | null;
  /** the PDF beside the ticket */
  pdf: string;
  send_date: string;
  date_produced: string;
  account_id: string;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

export function ticketOf(
  resource: Resource,
  piece: ApiObject,
  job: { ticket: string; date: string; accountId: string },
): JobTicket {
  const overlay = overlayPiece(piece);
  const geometry = geometryOf(resource.name, String(piece.size ?? ''), String(piece.address_placement ?? ''));
  const { tracking_code, routing_code } = imbCodesOf(overlay);
  return {
    ticket: job.ticket,
    piece_id: piece.id,
    kind: resource.name,
    object: resource.object,
    product: {
      size: geometry.size,
      pages: geometry.sides.map((s) => ({ side: s.field, width_in: s.width, height_in: s.height })),
    },
    size: text(piece.size),
    mail_type: text(piece.mail_type) ?? 'usps_first_class',
    extra_service: overlay.extra_service ?? null,
    color: flag(piece.color),
    double_sided: flag(piece.double_sided),
    return_envelope: flag(piece.return_envelope),
    to: piece.to,
    from: piece.from ?? null,
    imb: { tracking_code, routing_code },
    tracking_number: overlay.extra_service ? trackingNumberOf(overlay).value : null,
    pdf: `${piece.id}.pdf`,
    send_date: String(piece.send_date),
    date_produced: job.date,
    account_id: job.accountId,
  };
}
