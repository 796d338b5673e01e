// The parts of a mailpiece the overlay reads: the address objects, the letter options and the check
// fields. One loose reader (`overlayPiece`) turns a stored API object into this shape, so the drawing
// code works on typed values and never on `unknown`.

import { US_TERRITORIES } from '../../catalog/countries';
import { isPlainObject } from '../../base/records';

/** An address object as the API returns it (`address_country` is the full name or an ISO code). */
export interface PostalAddress {
  name?: string | null;
  company?: string | null;
  address_line1: string;
  address_line2?: string | null;
  address_city?: string | null;
  address_state?: string | null;
  address_zip?: string | null;
  address_country?: string | null;
}

/** The bank account fields a check face prints. */
export interface CheckAccount {
  routing_number: string;
  account_number: string;
  signatory: string;
  bank_name?: string | null;
  fractional_routing_number?: string | null;
}

export type ExtraService = 'certified' | 'certified_return_receipt' | 'registered';

/** A QR code as the piece carries it (catalog: qr_code), redirect_url not yet merged. */
export interface PieceQrCode {
  redirect_url: string;
  width: number;
  top?: number;
  bottom?: number;
  left?: number;
  right?: number;
  pages?: string;
  background?: string;
  foreground?: string;
}

/** The piece's IMb codes as stored on it (`imb`), the one value the PDF, the ticket and the API show. */
export interface ImbCodes {
  tracking_code: string;
  routing_code: string;
}

export interface OverlayPiece {
  id: string;
  to: PostalAddress;
  from?: PostalAddress | null;
  /** usps_first_class (default) or usps_standard */
  mail_type?: string | null;
  send_date?: string | null;
  date_created?: string | null;
  /** the IMb codes given at render (absent: a sample's are drawn) */
  imb?: ImbCodes | null;
  // letters
  address_placement?: string | null;
  extra_service?: ExtraService | null;
  tracking_number?: string | null;
  perforated_page?: number | null;
  double_sided?: boolean | null;
  // checks
  amount?: number | null;
  memo?: string | null;
  message?: string | null;
  check_number?: number | null;
  bank_account?: CheckAccount | null;
  // postcards, self mailers, letters
  qr_code?: PieceQrCode | null;
  merge_variables?: Record<string, unknown> | null;
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const record = (value: unknown): Record<string, unknown> | null => (isPlainObject(value) ? value : null);

function address(value: unknown): PostalAddress | null {
  const a = record(value);
  if (!a) return null;
  return {
    name: str(a.name),
    company: str(a.company),
    address_line1: str(a.address_line1) ?? '',
    address_line2: str(a.address_line2),
    address_city: str(a.address_city),
    address_state: str(a.address_state),
    address_zip: str(a.address_zip),
    address_country: str(a.address_country),
  };
}

function account(value: unknown): CheckAccount | null {
  const b = record(value);
  if (!b) return null;
  return {
    routing_number: str(b.routing_number) ?? '',
    account_number: str(b.account_number) ?? '',
    signatory: str(b.signatory) ?? '',
    bank_name: str(b.bank_name),
    fractional_routing_number: str(b.fractional_routing_number),
  };
}

function qrCode(value: unknown): PieceQrCode | null {
  const q = record(value);
  if (!q || str(q.redirect_url) === null || num(q.width) === null) return null;
  const style = record(q.style);
  const opt = (key: string) => num(q[key]) ?? undefined;
  return {
    redirect_url: str(q.redirect_url)!,
    width: num(q.width)!,
    top: opt('top'),
    bottom: opt('bottom'),
    left: opt('left'),
    right: opt('right'),
    pages: str(q.pages) ?? undefined,
    background: str(style?.background_color) ?? undefined,
    foreground: str(style?.foreground_color) ?? undefined,
  };
}

function imbCodes(value: unknown): ImbCodes | null {
  const codes = record(value);
  const tracking = str(codes?.tracking_code);
  const routing = str(codes?.routing_code);
  return tracking !== null && routing !== null ? { tracking_code: tracking, routing_code: routing } : null;
}

const EXTRA: readonly string[] = ['certified', 'certified_return_receipt', 'registered'];

/** A stored piece (letter, check, card, mailer) as the overlay's typed input. */
export function overlayPiece(object: Record<string, unknown>): OverlayPiece {
  const extra = str(object.extra_service);
  return {
    id: str(object.id) ?? '',
    to: address(object.to) ?? { address_line1: '' },
    from: address(object.from),
    mail_type: str(object.mail_type),
    send_date: str(object.send_date),
    date_created: str(object.date_created),
    imb: imbCodes(object.imb),
    address_placement: str(object.address_placement),
    extra_service: extra !== null && EXTRA.includes(extra) ? (extra as ExtraService) : null,
    tracking_number: str(object.tracking_number),
    perforated_page: num(object.perforated_page),
    double_sided: typeof object.double_sided === 'boolean' ? object.double_sided : null,
    amount: num(object.amount),
    memo: str(object.memo),
    message: str(object.message),
    check_number: num(object.check_number),
    bank_account: account(object.bank_account),
    qr_code: qrCode(object.qr_code),
    merge_variables: record(object.merge_variables),
  };
}

const DOMESTIC = new Set(['', 'US', 'USA', 'UNITED STATES']);

/** Mail to the US and its territories (stored as US addresses, or given by ISO code) is domestic. */
export function isDomestic(to: PostalAddress): boolean {
  const country = (to.address_country ?? '').trim().toUpperCase();
  return DOMESTIC.has(country) || US_TERRITORIES.has(country);
}
