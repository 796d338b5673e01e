// Tracking numbers of letters with an extra service: a 22-digit IMpb number for certified mail in
// the US, an S10 item id (RR.........US, what USPS uses for registered mail) for registered mail
// abroad. Create gives the piece its number (`newTrackingNumber`), which the API answers and the cover
// sheet and the job ticket print; only a piece stored without one gets one derived from its id.
import { createHash, randomInt } from 'node:crypto';
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

/** Channel application identifier 93: the number carries a 6-digit Mailer ID. */
const CHANNEL = '93';

const digitsOf = (id: string, count: number): string => {
  const value = createHash('sha256').update(`tracking:${id}`).digest().readBigUInt64BE(0);
  return (value % 10n ** BigInt(count)).toString().padStart(count, '0');
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

/** A new letter's number: S10 for registered mail, else a 22-digit 9407 number with its mod-10 check digit. */
export function newTrackingNumber(extraService: string): string {
  const digits = (count: number) => Array.from({ length: count }, () => randomInt(10)).join('');
  if (extraService === 'registered') {
    const serial = digits(8);
    return `RR${serial}${s10Check(serial)}US`;
  }
  const body = `9407${digits(17)}`;
  return body + mod10(body);
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

/** The piece's tracking number, kept when it is well formed, derived otherwise. */
export function trackingNumberOf(piece: OverlayPiece): TrackingNumber {
  const given = (piece.tracking_number ?? '').replace(/\s/g, '').toUpperCase();
  if (piece.extra_service === 'registered') {
    const serial = digitsOf(piece.id, 8);
    const value = S10.test(given) ? given : `RR${serial}${s10Check(serial)}US`;
    const display = `${value.slice(0, 2)} ${value.slice(2, 5)} ${value.slice(5, 8)} ${value.slice(8, 11)} ${value.slice(11)}`;
    return { value, display, encoder: 'code128', barcodeText: value };
  }
  let value = given;
  if (!/^\d{22}$/.test(value)) {
    const stc = IMPB_SERVICE_TYPE[piece.extra_service ?? 'certified'] ?? IMPB_SERVICE_TYPE.certified;
    const body = CHANNEL + stc + SAMPLE_MAILER_ID + digitsOf(piece.id, 21 - 2 - 3 - SAMPLE_MAILER_ID.length);
    value = body + mod10(body);
  }
  const zip = (piece.to.address_zip ?? '').replace(/\D/g, '');
  const prefix = zip.length === 5 || zip.length === 9 ? `(420)${zip}` : '';
  return {
    value,
    display: value.replace(/(\d{4})(?=\d)/g, '$1 '),
    encoder: 'gs1-128',
    barcodeText: `${prefix}(${value.slice(0, 2)})${value.slice(2)}`,
  };
}
