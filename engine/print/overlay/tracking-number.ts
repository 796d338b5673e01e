// Tracking numbers of letters with an extra service: a 22-digit IMpb number for certified mail in
// the US (USPS Publication 199), an S10 item id (two letters, 8 serial digits, a check digit, US: what
// USPS uses for registered mail) for registered mail. A live piece's number is made of the operator's
// identity and a serial the database draws (engine/domain/pieces/tracking-numbers.ts): the Mailer ID
// for certified mail, the S10 range USPS assigned for registered mail. A test piece gets a sample's
// (the sample Mailer ID, the sample S10 range), fixed by its id, so it never looks like a real one.
import { createHash } from 'node:crypto';
import { SAMPLE_MAILER_ID } from './imb';
import type { OverlayPiece } from './types';

/**
 * IMpb service type codes, placeholders until operators confirm theirs against USPS Pub 199 with
 * their Mailer ID: one for Certified Mail, one for Certified Mail with Return Receipt.
 */
export const IMPB_SERVICE_TYPE: Readonly<Record<string, string>> = {
  certified: '921',
  certified_return_receipt: '923',
};

/** Pub 199's channel application identifier of commercial mailers: 92 with a 9-digit Mailer ID, 93 with a 6-digit one. */
export const channelOf = (mailerId: string): string => (mailerId.length === 9 ? '92' : '93');

/** IMpb serial digits a Mailer ID leaves in the 22: 10 for a 6-digit MID, 7 for a 9-digit one. */
export const impbSerialDigits = (mailerId: string): number => 22 - 2 - 3 - mailerId.length - 1;

/** The registered range test pieces' numbers come from (fixed by their id, never drawn): RR99…, like the sample Mailer ID's 999999. */
export const SAMPLE_S10_RANGE = { indicator: 'RR', first: 99_000_000, last: 99_999_999 } as const;

const digitsOf = (id: string, space: number): number => {
  const value = createHash('sha256').update(`tracking:${id}`).digest().readBigUInt64BE(0);
  return Number(value % BigInt(space));
};

/** GS1 mod 10: weights 3 and 1 alternating from the rightmost digit. */
export function mod10(digits: string): string {
  let sum = 0;
  [...digits].reverse().forEach((d, i) => (sum += Number(d) * (i % 2 === 0 ? 3 : 1)));
  return String((10 - (sum % 10)) % 10);
}

/** UPU S10 check digit over 8 serial digits. */
export function s10Check(serial: string): string {
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const rest = 11 - ([...serial].reduce((sum, d, i) => sum + Number(d) * weights[i], 0) % 11);
  return String(rest === 10 ? 0 : rest === 11 ? 5 : rest);
}

/** S10 shape: two letters, eight serial digits and a check digit, the country. */
const S10 = /^[A-Z]{2}\d{9}[A-Z]{2}$/;

/**
 * A certified number: channel, service type code, Mailer ID, serial, mod 10 check digit over the 21
 * before it (Pub 199's layout; the routing ZIP is only in the barcode, not in the number).
 */
export function impbNumber(extraService: string, mailerId: string, serial: number): string {
  const stc = IMPB_SERVICE_TYPE[extraService] ?? IMPB_SERVICE_TYPE.certified;
  const body = channelOf(mailerId) + stc + mailerId + String(serial).padStart(impbSerialDigits(mailerId), '0');
  return body + mod10(body);
}

/** A registered number: the service indicator, the 8-digit serial, its check digit, US. */
export function s10Number(indicator: string, serial: number): string {
  const digits = String(serial).padStart(8, '0');
  return `${indicator}${digits}${s10Check(digits)}US`;
}

/** A test piece's number: the sample Mailer ID or the sample S10 range, the serial fixed by its id. */
export function sampleTrackingNumber(extraService: string, pieceId: string): string {
  if (extraService === 'registered') {
    const { indicator, first, last } = SAMPLE_S10_RANGE;
    return s10Number(indicator, first + digitsOf(pieceId, last - first + 1));
  }
  return impbNumber(extraService, SAMPLE_MAILER_ID, digitsOf(pieceId, 10 ** impbSerialDigits(SAMPLE_MAILER_ID)));
}

export interface TrackingNumber {
  /** as encoded: 22 digits, or the 13-character S10 id */
  value: string;
  /** as printed under the barcode */
  display: string;
  /** the barcode symbology and the data it encodes */
  encoder: 'gs1-128' | 'code128';
  barcodeText: string;
}

/** The piece's tracking number, kept when it is well formed, else a sample's (a piece stored without one). */
export function trackingNumberOf(piece: OverlayPiece): TrackingNumber {
  const given = (piece.tracking_number ?? '').replace(/\s/g, '').toUpperCase();
  const service = piece.extra_service ?? 'certified';
  if (service === 'registered') {
    const value = S10.test(given) ? given : sampleTrackingNumber(service, piece.id);
    const display = `${value.slice(0, 2)} ${value.slice(2, 5)} ${value.slice(5, 8)} ${value.slice(8, 11)} ${value.slice(11)}`;
    return { value, display, encoder: 'code128', barcodeText: value };
  }
  const value = /^\d{22}$/.test(given) ? given : sampleTrackingNumber(service, piece.id);
  const zip = (piece.to.address_zip ?? '').replace(/\D/g, '');
  const prefix = zip.length === 5 || zip.length === 9 ? `(420)${zip}` : '';
  return {
    value,
    display: value.replace(/(\d{4})(?=\d)/g, '$1 '),
    encoder: 'gs1-128',
    barcodeText: `${prefix}(${value.slice(0, 2)})${value.slice(2)}`,
  };
}
