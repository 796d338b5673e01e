// The check itself, the top 3.5 in of the first page: payer and bank, number and date, payee and
// amounts, memo, signature line and the MICR line in the clear band. The payee block sits where a #10
// double-window envelope shows it, as does the payer's block in the return window; the message (when
// no check_bottom artwork is given) is printed below the check.
import { CHECK_BOTTOM, CHECK_FACE, LETTER_RETURN_ZONE, letterAddressZone, type Zone } from '../../catalog/products';
import { drawRecipient, drawReturnAddress, knockout } from './address-block';
import { amountInWords, protectedFigures } from './amount-words';
import { imbCodesOf } from './imb';
import { DASH, drawMicrLine } from './micr';
import { drawVoid } from './sample-mark';
import { type Doc, fitSize, line, PT } from './pdf-doc';
import type { CheckAccount, OverlayPiece } from './types';

const RIGHT = 7.9 * PT;
const LEFT = 0.6 * PT;

/** The payee's window: the letter's top window, kept clear of the MICR band (bottom 5/8 in). */
export const PAYEE_ZONE: Zone = { ...letterAddressZone('top_first_page', 11), height: 1.1 };

/** The date printed on the check: the send date, else the day it was created. */
export function checkDate(piece: OverlayPiece, fallback = new Date()): string {
  const parsed = Date.parse(piece.send_date ?? piece.date_created ?? '');
  const date = Number.isNaN(parsed) ? fallback : new Date(parsed);
  return date.toLocaleDateString('en-US', { timeZone: 'UTC', year: 'numeric', month: 'long', day: 'numeric' });
}

function rightAligned(doc: Doc, text: string, y: number, right = RIGHT): void {
  line(doc, text, right - doc.widthOfString(text), y);
}

function header(doc: Doc, piece: OverlayPiece, account: CheckAccount, date: string): void {
  doc.fillColor('black');
  if (piece.from) drawReturnAddress(doc, LETTER_RETURN_ZONE, piece.from, true);
  const bank = (account.bank_name ?? '').trim();
  if (bank !== '') {
    doc.font('Helvetica-Bold').fontSize(fitSize(doc, [bank], 2.2 * PT, 9, 'Helvetica-Bold'));
    line(doc, bank, 4.1 * PT, 0.45 * PT);
  }
  if (account.fractional_routing_number) {
    doc.font('Helvetica').fontSize(7);
    line(doc, account.fractional_routing_number, 4.1 * PT, 0.62 * PT);
  }
  doc.font('Helvetica-Bold').fontSize(12);
  rightAligned(doc, String(piece.check_number ?? ''), 0.45 * PT);
  doc.font('Helvetica').fontSize(7);
  line(doc, 'DATE', 6.0 * PT, 0.88 * PT);
  doc.fontSize(9);
  rightAligned(doc, date, 0.86 * PT);
  doc
    .moveTo(6.3 * PT, 1.0 * PT)
    .lineTo(RIGHT, 1.0 * PT)
    .lineWidth(0.5)
    .stroke('black');
}

function amounts(doc: Doc, amount: number): void {
  const words = amountInWords(amount);
  doc.font('Helvetica').fontSize(fitSize(doc, [words], 5.6 * PT, 10));
  line(doc, words, LEFT, 1.28 * PT);
  doc
    .moveTo(LEFT, 1.45 * PT)
    .lineTo(6.3 * PT, 1.45 * PT)
    .lineWidth(0.5)
    .stroke('black');
  doc
    .rect(6.45 * PT, 1.18 * PT, RIGHT - 6.45 * PT, 0.32 * PT)
    .lineWidth(0.75)
    .stroke('black');
  doc.font('Courier-Bold').fontSize(10);
  rightAligned(doc, protectedFigures(amount), 1.28 * PT, RIGHT - 4);
  doc.font('Helvetica').fontSize(6);
  line(doc, 'PAY TO THE ORDER OF', LEFT, 1.62 * PT);
}

function memoAndSignature(doc: Doc, memo: string, signatory: string): void {
  const left = 4.9 * PT;
  doc.font('Helvetica').fontSize(7);
  line(doc, 'MEMO', left, 2.12 * PT);
  if (memo !== '') {
    doc.fontSize(fitSize(doc, [memo], RIGHT - left - 30, 9));
    line(doc, memo, left + 28, 2.08 * PT);
  }
  doc
    .moveTo(left + 26, 2.22 * PT)
    .lineTo(RIGHT, 2.22 * PT)
    .lineWidth(0.5)
    .stroke('black');
  doc
    .moveTo(left, 2.62 * PT)
    .lineTo(RIGHT, 2.62 * PT)
    .lineWidth(0.75)
    .stroke('black');
  doc.font('Helvetica').fontSize(fitSize(doc, [signatory], RIGHT - left, 7));
  line(doc, signatory, left + (RIGHT - left - doc.widthOfString(signatory)) / 2, 2.66 * PT);
}

/** The message below the check, wrapped in the CHECK_BOTTOM area (used when no artwork is given). */
export function drawCheckMessage(doc: Doc, message: string): void {
  const zone = CHECK_BOTTOM;
  doc.font('Helvetica').fontSize(10).fillColor('black');
  doc.text(message, LEFT, (zone.y + 0.5) * PT, {
    width: (zone.width - 1.2) * PT,
    height: (zone.height - 1) * PT,
    ellipsis: true,
  });
}

export interface CheckFaceOptions {
  /** the date when the piece has no send_date nor date_created */
  date?: Date;
  deliveryPoint?: string;
  /** a test check: VOID across it, no bank digits on it (MICR routing and account masked, no fractional) */
  sample?: boolean;
}

/** Each digit of a masked MICR field as E-13B's dash symbol: the field's length shows, its digits do not. */
const masked = (digits: string): string => DASH.repeat(digits.length);

/** Draws the check face on the current page (8.5 in wide); throws when the check fields are missing. */
export function drawCheckFace(doc: Doc, piece: OverlayPiece, options: CheckFaceOptions = {}): void {
  const account = piece.bank_account;
  if (!account || typeof piece.amount !== 'number' || typeof piece.check_number !== 'number')
    throw new TypeError('a check needs bank_account, amount and check_number');
  knockout(doc, CHECK_FACE);
  const shown = options.sample ? { ...account, fractional_routing_number: null } : account;
  header(doc, piece, shown, checkDate(piece, options.date));
  amounts(doc, piece.amount);
  drawRecipient(doc, PAYEE_ZONE, piece.to, {
    // a check always goes First-Class
    codes: imbCodesOf({ ...piece, mail_type: 'usps_first_class' }, options.deliveryPoint),
    imb: 'above',
    noKnockout: true,
  });
  memoAndSignature(doc, (piece.memo ?? '').trim(), account.signatory);
  const fields = {
    checkNumber: String(piece.check_number),
    routing: options.sample ? masked(account.routing_number) : account.routing_number,
    account: options.sample ? masked(account.account_number) : account.account_number,
  };
  drawMicrLine(doc, fields, CHECK_FACE.width, (CHECK_FACE.y + CHECK_FACE.height) * PT);
  if (options.sample) drawVoid(doc, CHECK_FACE);
}
