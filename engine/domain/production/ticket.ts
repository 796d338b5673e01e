// The job ticket: what a print room needs to print, finish, insert and mail one piece, beside its PDF
// (its shape is declared in ticket-schema.ts). The IMb codes and the tracking number are the ones
// stored on the piece, which the overlay printed (engine/print/overlay), so what the mail stream scans
// can be matched back to the ticket; the page count is read from the PDF itself.
import type { MailpieceResource } from '../../catalog';
import type { ApiObject, StoredPiece } from '../../store/objects';
import { geometryOf } from '../../catalog/products';
import { imbCodesOf } from '../../print/overlay/imb';
import { isDomestic, overlayPiece } from '../../print/overlay/types';
import { indiciaLines } from '../../print/overlay/address-block';
import type { UspsIdentity } from '../../catalog/usps-identity';
import { trackingNumberOf } from '../../print/overlay/tracking-number';
import { pdfLib } from '../../base/packages';
import type { JobTicket } from './ticket-schema';
import type { TicketInsert } from './inserts';
import { isPlainObject } from '../../base/records';

export type { JobTicket } from './ticket-schema';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flag = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);

/** Pages in a PDF, read from the document itself. */
export async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const doc = await pdfLib().PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
  return doc.getPageCount();
}

/**
 * Letters follow their double_sided; checks print on one side (the check page, then its attachment);
 * cards, self mailers and snap packs are one sheet printed on both sides.
 */
function sidesOf(kind: string, piece: ApiObject): JobTicket['sides'] {
  if (kind === 'letters') return piece.double_sided === false ? 'simplex' : 'duplex';
  return kind === 'checks' ? 'simplex' : 'duplex';
}

/** Postcards and self mailers have no colour choice: they are printed in full colour; checks in black. */
function colorOf(kind: string, piece: ApiObject): boolean {
  if (typeof piece.color === 'boolean') return piece.color;
  return kind === 'postcards' || kind === 'self_mailers';
}

/**
 * The letter's perforated page as a page of the PDF: the renderer puts a cover sheet (certified,
 * registered) or an address page (insert_blank_page) in front, and on a double-sided letter that
 * front matter is a whole sheet, its back blank (engine/print/overlay/plan.ts, planLetter).
 */
function perforatedPdfPage(piece: ApiObject): number | null {
  if (typeof piece.perforated_page !== 'number') return null;
  const front = piece.extra_service || piece.address_placement === 'insert_blank_page' ? 1 : 0;
  return piece.perforated_page + front * (piece.double_sided === false ? 1 : 2);
}

const MAIL_TYPES: readonly JobTicket['mail_type'][] = ['usps_first_class', 'usps_standard'];

/**
 * The indicia a letter's or check's envelope prints, in the words the postcards' indicia use
 * (address-block.ts, indiciaLines), so the print room's envelope says what the cards say. Cards, self
 * mailers and snap packs print theirs on the piece.
 */
function indiciaOf(kind: string, mailType: JobTicket['mail_type'], abroad: boolean, usps: UspsIdentity) {
  if (kind !== 'letters' && kind !== 'checks') return null;
  const mailClass = kind === 'checks' ? 'usps_first_class' : mailType;
  const { number, city, state } = usps.permit;
  return {
    mail_class: mailClass,
    international: abroad,
    permit_number: number,
    permit_city: city,
    permit_state: state,
    lines: indiciaLines(mailClass, abroad, usps),
  };
}

export function ticketOf(
  resource: MailpieceResource,
  piece: StoredPiece,
  job: {
    ticket: string;
    date: string;
    accountId: string;
    pages: number;
    inserts?: TicketInsert[];
    /** the identity the piece is mailed under (its permit on the envelope) */
    usps: UspsIdentity;
  },
): JobTicket {
  const overlay = overlayPiece(piece);
  const geometry = geometryOf(resource.name, String(piece.size ?? ''), String(piece.address_placement ?? ''));
  const { tracking_code, routing_code } = imbCodesOf(overlay);
  const sides = sidesOf(resource.name, piece);
  const mailType = MAIL_TYPES.find((m) => m === piece.mail_type) ?? 'usps_first_class';
  const envelope = piece.custom_envelope;
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
    pdf: `${piece.id}.pdf`,
    pages: job.pages,
    sheets: sides === 'duplex' ? Math.ceil(job.pages / 2) : job.pages,
    sides,
    color: colorOf(resource.name, piece),
    double_sided: flag(piece.double_sided),
    address_placement: resource.name === 'letters' ? text(piece.address_placement) : null,
    perforated_page: perforatedPdfPage(piece),
    return_envelope: flag(piece.return_envelope),
    custom_envelope: typeof envelope === 'string' ? envelope : text(isPlainObject(envelope) ? envelope.id : undefined),
    // the cards and buckslips to put in the envelope, from the print room's stock (inserts.ts)
    inserts: job.inserts ?? [],
    mail_type: mailType,
    extra_service: overlay.extra_service ?? null,
    to: piece.to,
    from: piece.from ?? null,
    imb: { tracking_code, routing_code },
    tracking_number: overlay.extra_service ? trackingNumberOf(overlay).value : null,
    indicia: indiciaOf(resource.name, mailType, !isDomestic(overlay.to), job.usps),
    send_date: String(piece.send_date),
    date_produced: job.date,
    account_id: job.accountId,
  };
}
