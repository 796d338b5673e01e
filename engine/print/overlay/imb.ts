// The USPS Intelligent Mail barcode: the 20-digit tracking code and the routing code of a piece,
// encoded to 65 bars by bwip-js (its `onecode` encoder implements USPS-B-3200), drawn here as vector
// rectangles at the USPS dimensions so the bars are exact at any print resolution.
import { createHash } from 'node:crypto';
import { bwipJs } from '../../base/packages';
import type { Doc } from './pdf-doc';
import { PT } from './pdf-doc';
import { type ImbCodes, isDomestic, type PostalAddress } from './types';

/** Barcode identifier: 00, no presort identification (what a non-presorted mailer prints). */
export const BARCODE_ID = '00';

/**
 * The Mailer ID of sample pieces (test mode, or drawn without the operator's identity). No USPS
 * Mailer ID is 6 digits starting with 9, so a sample barcode is well formed, sorts by ZIP, and can
 * never be mistaken for anyone's mail.
 */
export const SAMPLE_MAILER_ID = '999999';

/**
 * Service type identifiers from the USPS STID table, basic option, no address correction and no
 * IV-MTR: 300 for First-Class Mail, 301 for Marketing (Standard) Mail; the operator may configure others.
 */
export const SERVICE_TYPE: Readonly<Record<string, string>> = { usps_first_class: '300', usps_standard: '301' };

/** Serial digits a Mailer ID leaves in the 20-digit tracking code: 9 for 6 digits, 6 for 9. */
export const serialDigitsOf = (mailerId: string): number => 20 - 5 - mailerId.length;

/** The 20-digit tracking code: barcode id, service type, mailer id, serial. */
export function imbTracking(
  serial: number,
  mailType: string | null | undefined,
  mailer: { mailerId: string; serviceType?: Readonly<Record<string, string>> },
): string {
  const types = mailer.serviceType ?? SERVICE_TYPE;
  const stid = types[mailType ?? 'usps_first_class'] ?? types.usps_first_class;
  const digits = serialDigitsOf(mailer.mailerId);
  if (!Number.isInteger(serial) || serial < 0 || serial >= 10 ** digits)
    throw new RangeError(`an IMb serial of Mailer ID ${mailer.mailerId} has ${digits} digits: ${serial}`);
  return BARCODE_ID + stid + mailer.mailerId + String(serial).padStart(digits, '0');
}

/** A sample piece's tracking code: the sample Mailer ID, a serial from the piece id (no serial is used up). */
export function sampleTracking(pieceId: string, mailType?: string | null): string {
  const digest = createHash('sha256').update(pieceId).digest();
  const serial = Number(digest.readBigUInt64BE(0) % 10n ** BigInt(serialDigitsOf(SAMPLE_MAILER_ID)));
  return imbTracking(serial, mailType, { mailerId: SAMPLE_MAILER_ID });
}

/** ZIP5, ZIP+4 when `address_zip` has it, plus the 2-digit delivery point when known; '' without a ZIP. */
export function imbRouting(to: PostalAddress, deliveryPoint?: string): string {
  const digits = (to.address_zip ?? '').replace(/\D/g, '');
  if (digits.length !== 5 && digits.length !== 9) return '';
  if (digits.length === 9 && deliveryPoint !== undefined && /^\d{2}$/.test(deliveryPoint))
    return digits + deliveryPoint;
  return digits;
}

/** The routing code a piece's barcode carries: '' (no barcode printed) for mail abroad or without a ZIP. */
export const routingOf = (to: PostalAddress, deliveryPoint?: string): string =>
  isDomestic(to) ? imbRouting(to, deliveryPoint) : '';

/**
 * The codes a piece's address block encodes: those stored on the piece when it has them (given once
 * at render, engine/domain/rendering/imb-codes.ts), else a sample's.
 */
export function imbCodesOf(
  piece: { id: string; mail_type?: string | null; to: PostalAddress; imb?: ImbCodes | null },
  deliveryPoint?: string,
): ImbCodes {
  if (piece.imb) return piece.imb;
  return { tracking_code: sampleTracking(piece.id, piece.mail_type), routing_code: routingOf(piece.to, deliveryPoint) };
}

/** The 65 bars, left to right: F full, A ascender, D descender, T tracker. */
export function imbBars(tracking: string, routing: string): string {
  if (!/^\d[0-4]\d{18}$/.test(tracking)) throw new RangeError(`IMb tracking code must be 20 digits: ${tracking}`);
  if (![0, 5, 9, 11].includes(routing.length) || /\D/.test(routing))
    throw new RangeError(`IMb routing code must be 0, 5, 9 or 11 digits: ${routing}`);
  const [symbol] = bwipJs().raw('onecode', tracking + routing, {});
  if (!('bhs' in symbol) || symbol.bhs.length !== 65) throw new Error('bwip-js onecode gave no 65-bar symbol');
  // bwip gives each bar's height and its bottom offset: tall = full, short = tracker, and the middle
  // height is an ascender when lifted off the baseline, a descender when standing on it.
  const tallest = Math.max(...symbol.bhs);
  const shortest = Math.min(...symbol.bhs);
  return symbol.bhs
    .map((h, i) => {
      if (h > tallest - 1e-6) return 'F';
      if (h < shortest + 1e-6) return 'T';
      return symbol.bbs[i] > 1e-6 ? 'A' : 'D';
    })
    .join('');
}

// USPS-B-3200 dimensions, in inches: 22 bars per inch, bars 0.02 wide; a full bar 0.145 tall, the
// tracker 0.05 centred on it, so ascenders and descenders are 0.0975 (spec 0.091 to 0.111).
const PITCH = 1 / 22;
const BAR_WIDTH = 0.02;
const FULL = 0.145;
const TRACKER = 0.05;
const TRACKER_TOP = (FULL - TRACKER) / 2;

/** Drawn size in points: 2.93 x 0.145 in (spec: 2.667 to 3.225 in long). */
export const IMB_WIDTH = (64 * PITCH + BAR_WIDTH) * PT;
export const IMB_HEIGHT = FULL * PT;

/** Draws the bars with their top-left corner at (x, y) points, pdfkit's top-down coordinates. */
export function drawImb(doc: Doc, bars: string, x: number, y: number): void {
  doc.save();
  for (let i = 0; i < bars.length; i++) {
    const bar = bars[i];
    const top = bar === 'F' || bar === 'A' ? 0 : TRACKER_TOP;
    const bottom = bar === 'F' || bar === 'D' ? FULL : TRACKER_TOP + TRACKER;
    doc.rect(x + i * PITCH * PT, y + top * PT, BAR_WIDTH * PT, (bottom - top) * PT);
  }
  doc.fillColor('black').fill();
  doc.restore();
}
