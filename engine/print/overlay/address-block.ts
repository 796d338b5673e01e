// The engine's marks in a side's zones: the recipient block (with its IMb for US mail), the return
// address and the postage indicia. Each sits on a white knockout so no artwork under it can make it
// unreadable to a carrier or a sorting machine.
import { countryName } from '../../catalog/countries';
import type { Zone } from '../../catalog/products';
import { drawImb, IMB_HEIGHT, IMB_WIDTH, imbBars } from './imb';
import { type Doc, fitSize, line, PT } from './pdf-doc';
import { type ImbCodes, isDomestic, type PostalAddress } from './types';
import type { UspsIdentity } from '../../catalog/usps-identity';

/** Inset from the zone's edge: the IMb's 0.125 in quiet zone stays inside the white knockout. */
const PAD = 0.125 * PT;
const LEADING = 1.2;

const present = (value: string | null | undefined): value is string => !!value && value.trim() !== '';

/** The lines of an address as it is printed: name, company, street lines, last line, country abroad. */
export function addressLines(address: PostalAddress): string[] {
  const lines = [address.name, address.company, address.address_line1, address.address_line2].filter(present);
  const place = [address.address_city, address.address_state, address.address_zip].filter(present);
  if (isDomestic(address)) {
    // USPS last line: CITY ST ZIP, the city followed by a space, not a comma.
    const cityState = [address.address_city, address.address_state].filter(present).join(' ');
    lines.push([cityState, address.address_zip].filter(present).join('  '));
  } else {
    if (place.length > 0) lines.push(place.join(' '));
    const country = (address.address_country ?? '').trim();
    lines.push((country.length === 2 ? countryName(country) : country).toUpperCase());
  }
  return lines.map((l) => l.trim()).filter((l) => l !== '');
}

/** Fills a zone (inches) white: the knockout under every engine mark. */
export function knockout(doc: Doc, zone: Zone): void {
  doc
    .save()
    .rect(zone.x * PT, zone.y * PT, zone.width * PT, zone.height * PT)
    .fillColor('white')
    .fill()
    .restore();
}

/** Stacks lines top-down from (x, y) points at `size`; returns the y under the last line. */
function stack(doc: Doc, lines: string[], x: number, y: number, size: number, bold = 0): number {
  let at = y;
  lines.forEach((text, i) => {
    doc.font(i < bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(size);
    line(doc, text, x, at);
    at += size * LEADING;
  });
  return at;
}

export interface RecipientOptions {
  /** the piece's IMb codes (`imbCodesOf`); routing '' prints no barcode */
  codes: ImbCodes;
  /** the IMb above the address lines (default, stays in a window) or below them */
  imb?: 'above' | 'below';
  /** leave the artwork under the zone alone (the check face is already white) */
  noKnockout?: boolean;
}

/** The recipient block in `zone` (inches): lines and, for a US ZIP, the IMb; vertically centred. */
export function drawRecipient(doc: Doc, zone: Zone, to: PostalAddress, options: RecipientOptions): void {
  if (!options.noKnockout) knockout(doc, zone);
  const lines = addressLines(to);
  const { tracking_code: tracking, routing_code: routing } = options.codes;
  const bars = routing === '' ? undefined : imbBars(tracking, routing);
  const width = zone.width * PT - 2 * PAD;
  const barBand = bars ? IMB_HEIGHT + 0.06 * PT : 0;
  const room = (zone.height * PT - 2 * PAD - barBand) / (lines.length * LEADING);
  const size = Math.max(6, Math.min(fitSize(doc, lines, width, 11), room));
  const height = barBand + lines.length * size * LEADING;
  const x = zone.x * PT + PAD;
  let y = zone.y * PT + Math.max(PAD, (zone.height * PT - height) / 2);
  doc.fillColor('black');
  if (bars && options.imb !== 'below') {
    drawImb(doc, bars, x, y);
    y += barBand;
  }
  const end = stack(doc, lines, x, y, size);
  if (bars && options.imb === 'below') drawImb(doc, bars, Math.min(x, (zone.x + zone.width) * PT - IMB_WIDTH), end);
}

/** The sender's block in `zone` (inches), smaller than the recipient's. */
export function drawReturnAddress(doc: Doc, zone: Zone, from: PostalAddress, noKnockout = false): void {
  if (!noKnockout) knockout(doc, zone);
  const lines = addressLines(from);
  const room = (zone.height * PT - 2 * PAD) / (lines.length * LEADING);
  const size = Math.max(5, Math.min(fitSize(doc, lines, zone.width * PT - 2 * PAD, 8), room));
  doc.fillColor('black');
  stack(doc, lines, zone.x * PT + PAD, zone.y * PT + PAD, size, 1);
}

/**
 * The permit imprint indicia per mail class: First-Class Mail, or Marketing Mail's PRESORTED STANDARD,
 * then U.S. POSTAGE PAID and the permit's office and number. Without the operator's identity (test
 * pieces) the permit lines say SAMPLE, so such a sheet can never pass for paid postage.
 */
export function indiciaLines(
  mailType: string | null | undefined,
  abroad: boolean,
  usps?: Pick<UspsIdentity, 'permit'>,
): string[] {
  const service =
    mailType === 'usps_standard'
      ? ['PRESORTED', 'STANDARD']
      : abroad
        ? ['FIRST-CLASS MAIL', 'INTERNATIONAL']
        : ['FIRST-CLASS MAIL'];
  const permit = usps?.permit;
  const office = permit
    ? [`${permit.city}, ${permit.state}`, `PERMIT NO. ${permit.number}`]
    : ['SAMPLE', 'NOT MAILABLE'];
  return [...service, 'U.S. POSTAGE PAID', ...office];
}

/** The postage indicia: a ruled box in the top right of `zone` (inches), lines centred. */
export function drawPostage(
  doc: Doc,
  zone: Zone,
  mailType: string | null | undefined,
  abroad: boolean,
  usps?: Pick<UspsIdentity, 'permit'>,
): void {
  knockout(doc, zone);
  const lines = indiciaLines(mailType, abroad, usps);
  const boxWidth = Math.min(zone.width * PT - PAD, 1 * PT);
  const size = Math.min(7, fitSize(doc, lines, boxWidth - 8, 7, 'Helvetica-Bold'));
  const boxHeight = lines.length * size * LEADING + 8;
  const x = (zone.x + zone.width) * PT - PAD / 2 - boxWidth;
  const y = zone.y * PT + PAD / 2;
  doc.save().lineWidth(0.75).strokeColor('black').rect(x, y, boxWidth, boxHeight).stroke().restore();
  doc.fillColor('black').font('Helvetica-Bold').fontSize(size);
  lines.forEach((text, i) => line(doc, text, x + (boxWidth - doc.widthOfString(text)) / 2, y + 4 + i * size * LEADING));
}
