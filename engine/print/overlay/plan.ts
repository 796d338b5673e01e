// Which pages a piece prints, in print order, and what the engine draws on each: the artwork page it
// starts from (or a blank one), and the overlay drawn over it. compose.ts turns a plan into a PDF.
import { CHECK_BOTTOM, type ProductGeometry, type SideGeometry } from '../../catalog/products';
import { drawPostage, drawRecipient, drawReturnAddress, knockout } from './address-block';
import { drawCertifiedSheet } from './certified-sheet';
import { drawCheckFace, drawCheckMessage } from './check-face';
import { type Doc, line, PT } from './pdf-doc';
import { imbCodesOf } from './imb';
import { drawQr } from './qr';
import { drawSampleMark } from './sample-mark';
import type { UspsIdentity } from '../../catalog/usps-identity';
import { isDomestic, type OverlayPiece } from './types';
import { qrPagesOf, qrTarget } from '../../catalog/mailpieces/qr-code';
import type { QrPages } from '../../catalog/types';

/** Where a page's base comes from: an artwork page, a blank page, or a region of an artwork page. */
export type PageBase =
  | { kind: 'artwork'; field: string; index: number }
  | { kind: 'blank' }
  | { kind: 'region'; field: string; index: number; region: { x: number; y: number; width: number; height: number } };

export interface PlannedPage {
  /** inches */
  width: number;
  height: number;
  base: PageBase;
  overlay?: (doc: Doc) => void;
}

export interface PlanContext {
  piece: OverlayPiece;
  geometry: ProductGeometry;
  /** page count of each artwork side given */
  pageCounts: Partial<Record<string, number>>;
  deliveryPoint?: string;
  date?: Date;
  /** the operator's USPS identity (its permit in the indicia); absent: sample marks */
  usps?: UspsIdentity;
  /** a test piece: a letter says SAMPLE - NOT MAILABLE, a check VOID with its MICR masked (sample-mark.ts) */
  sample?: boolean;
}

/** The perforation of a return-envelope slip: 3.67 in above the page bottom, labelled in the margin. */
export const PERFORATION_FROM_BOTTOM = 3.67;

function perforation(doc: Doc, width: number, height: number): void {
  const y = (height - PERFORATION_FROM_BOTTOM) * PT;
  doc.save().lineWidth(0.5).dash(4, { space: 3 }).strokeColor('black');
  doc
    .moveTo(0, y)
    .lineTo(width * PT, y)
    .stroke()
    .undash()
    .restore();
  doc.font('Helvetica').fontSize(5).fillColor('black');
  line(doc, 'perforation', 0.1 * PT, y - 7);
}

/** Recipient, return address and postage on a side that has those zones. */
function addressSide(ctx: PlanContext, side: SideGeometry, withPostage: boolean): (doc: Doc) => void {
  const { piece } = ctx;
  return (doc) => {
    // the whole ink-free area is left blank by the customer's design; keep it blank under the marks
    if (side.inkFree) knockout(doc, side.inkFree);
    if (side.returnZone && piece.from) drawReturnAddress(doc, side.returnZone, piece.from);
    if (withPostage && side.postageZone)
      drawPostage(doc, side.postageZone, piece.mail_type, !isDomestic(piece.to), ctx.usps);
    if (side.addressZone)
      drawRecipient(doc, side.addressZone, piece.to, { codes: imbCodesOf(piece, ctx.deliveryPoint) });
  };
}

/**
 * The QR code's mark on a page it names (a side's field, or a 1-based artwork page number), placed by
 * its offsets from the page's edges (the page as the customer designs it, bleed included).
 */
function qrMark(ctx: PlanContext, pages: QrPages, page: string | number, size: { width: number; height: number }) {
  const qr = ctx.piece.qr_code;
  if (!qr) return undefined;
  const named = qrPagesOf(qr.pages, pages);
  if ('error' in named || !named.pages.includes(page)) return undefined;
  const x = qr.left ?? size.width - (qr.right ?? 0) - qr.width;
  const y = qr.top ?? size.height - (qr.bottom ?? 0) - qr.width;
  const text = qrTarget(qr.redirect_url, ctx.piece.merge_variables);
  return (doc: Doc) =>
    drawQr(doc, { text, x, y, width: qr.width, background: qr.background, foreground: qr.foreground });
}

/** Several marks on one page, in order; none gives no overlay at all. */
function together(marks: (((doc: Doc) => void) | undefined)[]): ((doc: Doc) => void) | undefined {
  const drawn = marks.filter((mark): mark is (doc: Doc) => void => mark !== undefined);
  return drawn.length ? (doc) => drawn.forEach((mark) => mark(doc)) : undefined;
}

/** Cards, self mailers, snap packs: one page a side, the address side gets the marks. */
function planCards(ctx: PlanContext): PlannedPage[] {
  const [first, second] = ctx.geometry.sides;
  const sides: QrPages = { sides: [first.field, second.field] };
  return ctx.geometry.sides.map((side) => ({
    width: side.width,
    height: side.height,
    base: ctx.pageCounts[side.field] ? { kind: 'artwork', field: side.field, index: 0 } : { kind: 'blank' },
    overlay: together([
      qrMark(ctx, sides, side.field, side),
      side.addressZone ? addressSide(ctx, side, true) : undefined,
    ]),
  }));
}

/**
 * Letters. A certified or registered letter gets the cover sheet in front, which carries the address
 * (so insert_blank_page adds nothing more); insert_blank_page alone adds an address page. Printed
 * double-sided, a page in front would shift every artwork page onto the other side of its sheet, so
 * the front matter is then a whole sheet (its back blank). Printed one side (double_sided false),
 * nothing is inserted between pages: each page is its own sheet already.
 */
function planLetter(ctx: PlanContext): PlannedPage[] {
  const { piece } = ctx;
  const side = ctx.geometry.sides[0];
  const count = ctx.pageCounts[side.field] ?? 0;
  if (count === 0) throw new TypeError(`a letter needs its ${side.field} artwork`);
  const size = { width: side.width, height: side.height };
  const front: PlannedPage[] = [];
  if (piece.extra_service && side.addressZone) {
    const zone = side.addressZone;
    const options = { ...size, addressZone: zone, deliveryPoint: ctx.deliveryPoint };
    front.push({ ...size, base: { kind: 'blank' }, overlay: (doc) => drawCertifiedSheet(doc, piece, options) });
  } else if (piece.address_placement === 'insert_blank_page') {
    front.push({ ...size, base: { kind: 'blank' }, overlay: addressSide(ctx, side, false) });
  }
  if (ctx.sample && front.length > 0) {
    const cover = front[0].overlay;
    front[0].overlay = (doc) => {
      cover?.(doc);
      drawSampleMark(doc, side.width, side.height);
    };
  }
  if (front.length > 0 && piece.double_sided !== false) front.push({ ...size, base: { kind: 'blank' } });
  const perforated = piece.perforated_page ?? 0;
  const pages: PlannedPage[] = [];
  for (let index = 0; index < count; index++) {
    // QR page numbers count the customer's pages: an inserted cover or address page is not one
    const overlay = together([
      qrMark(ctx, 'numbers', index + 1, size),
      index === 0 && front.length === 0 ? addressSide(ctx, side, false) : undefined,
      index === 0 && front.length === 0 && ctx.sample
        ? (doc: Doc) => drawSampleMark(doc, side.width, side.height)
        : undefined,
      index + 1 === perforated ? (doc: Doc) => perforation(doc, side.width, side.height) : undefined,
    ]);
    pages.push({ ...size, base: { kind: 'artwork', field: side.field, index }, overlay });
  }
  return [...front, ...pages];
}

/**
 * Checks: the check page (the check face over the top 3.5 in, below it the first page of the
 * check_bottom artwork clipped to CHECK_BOTTOM, or the message), then every attachment page.
 */
function planCheck(ctx: PlanContext): PlannedPage[] {
  const { piece } = ctx;
  const [bottom, attachment] = ctx.geometry.sides;
  const hasBottom = (ctx.pageCounts[bottom.field] ?? 0) > 0;
  const message = (piece.message ?? '').trim();
  const checkPage: PlannedPage = {
    width: bottom.width,
    height: bottom.height,
    base: hasBottom ? { kind: 'region', field: bottom.field, index: 0, region: CHECK_BOTTOM } : { kind: 'blank' },
    overlay: (doc) => {
      drawCheckFace(doc, piece, { date: ctx.date, deliveryPoint: ctx.deliveryPoint, sample: ctx.sample });
      if (!hasBottom && message !== '') drawCheckMessage(doc, message);
    },
  };
  const attachments = Array.from({ length: ctx.pageCounts[attachment.field] ?? 0 }, (_, index) => ({
    width: attachment.width,
    height: attachment.height,
    base: { kind: 'artwork', field: attachment.field, index } as const,
  }));
  return [checkPage, ...attachments];
}

export function planPages(ctx: PlanContext): PlannedPage[] {
  if (ctx.geometry.kind === 'checks') return planCheck(ctx);
  if (ctx.geometry.multiPage) return planLetter(ctx);
  return planCards(ctx);
}
