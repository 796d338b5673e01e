// One print-ready PDF for a whole piece: the customer's artwork pages (already at the product's size)
// with the engine's marks laid over them. pdfkit draws every overlay page into one PDF; pdf-lib copies
// the artwork pages and draws each overlay page on top as an embedded form, so the artwork stays as
// rendered and the marks stay vector.
import type { PDFDocument, PDFEmbeddedPage, PDFPage } from 'pdf-lib';
import { geometryOf, type ProductGeometry } from '../../catalog/products';
import { addPage, drawPdf, PT } from './pdf-doc';
import { type PageBase, type PlannedPage, planPages } from './plan';
import type { OverlayPiece } from './types';
import { pdfLib } from '../../base/packages';
import type { UspsIdentity } from '../../catalog/usps-identity';

export type PieceKind = 'postcards' | 'self_mailers' | 'snap_packs' | 'letters' | 'checks';

export interface ComposeInput {
  kind: PieceKind;
  /** the product size (`4x6`, `us_letter`, `6x18_bifold`, ...) */
  size: string;
  /** the piece, typed (`overlayPiece(apiObject)` reads a stored one) */
  piece: OverlayPiece;
  /** artwork PDF of each side, by field (`front`, `back`, `inside`, `outside`, `file`, `check_bottom`, `attachment`) */
  sides: Partial<Record<string, Uint8Array>>;
  /** defaults to geometryOf(kind, size, piece.address_placement) */
  geometry?: ProductGeometry;
  /** the 2-digit delivery point for the IMb routing code, when verification gave one */
  deliveryPoint?: string;
  /** the check date when the piece has neither send_date nor date_created */
  date?: Date;
  /** the operator's USPS identity, for a live piece's indicia; absent: sample marks (test pieces) */
  usps?: UspsIdentity;
  /** a test piece: marked so it can never pass for mail (SAMPLE on letters, VOID and no bank digits on checks) */
  sample?: boolean;
}

/** Pages whose size is off by less than this (rounding in the renderer) are set to the exact size. */
const SIZE_TOLERANCE = 1;

async function loadSides(sides: ComposeInput['sides']): Promise<Map<string, PDFDocument>> {
  const loaded = new Map<string, PDFDocument>();
  for (const [field, bytes] of Object.entries(sides)) {
    if (bytes && bytes.length > 0) loaded.set(field, await pdfLib().PDFDocument.load(bytes, { updateMetadata: false }));
  }
  return loaded;
}

/** Copies every artwork page the plan uses, one copyPages call per side (shared resources once). */
async function copyArtwork(out: PDFDocument, plan: PlannedPage[], docs: Map<string, PDFDocument>) {
  const wanted = new Map<string, number[]>();
  for (const { base } of plan) {
    if (base.kind !== 'artwork') continue;
    if (!wanted.has(base.field)) wanted.set(base.field, []);
    wanted.get(base.field)!.push(base.index);
  }
  const copied = new Map<string, PDFPage>();
  for (const [field, indices] of wanted) {
    const pages = await out.copyPages(docs.get(field)!, indices);
    indices.forEach((index, i) => copied.set(`${field}:${index}`, pages[i]));
  }
  return copied;
}

/** A page as a viewer shows it: its MediaBox (wherever its origin) turned by /Rotate. */
function shownBox(page: PDFPage) {
  const box = page.getMediaBox();
  const angle = (((page.getRotation().angle % 360) + 360) % 360) as 0 | 90 | 180 | 270;
  const quarter = angle === 90 || angle === 270;
  return { box, angle, width: quarter ? box.height : box.width, height: quarter ? box.width : box.height };
}

/**
 * An artwork page at exactly the planned size, as a viewer shows it: trued up when within rounding,
 * else scaled to fit, centred. A page turned by /Rotate, or whose MediaBox does not start at 0,0, is
 * drawn turned and placed, since the sheet itself is never rotated.
 */
async function exactPage(out: PDFDocument, page: PDFPage, width: number, height: number): Promise<PDFPage> {
  const { box, angle, width: w, height: h } = shownBox(page);
  const near = Math.abs(w - width) <= SIZE_TOLERANCE && Math.abs(h - height) <= SIZE_TOLERANCE;
  if (near && angle === 0 && box.x === 0 && box.y === 0) {
    page.setMediaBox(0, 0, width, height);
    page.setCropBox(0, 0, width, height);
    return out.addPage(page);
  }
  const fitted = out.addPage([width, height]);
  const embedded = await out.embedPage(page, {
    left: box.x,
    bottom: box.y,
    right: box.x + box.width,
    top: box.y + box.height,
  });
  const scale = Math.min(width / w, height / h);
  const left = (width - w * scale) / 2;
  const bottom = (height - h * scale) / 2;
  // /Rotate turns a page clockwise; drawPage turns counter-clockwise about its (x, y): that corner
  // goes where the turned page's content starts
  const corner = {
    0: [left, bottom],
    90: [left, bottom + h * scale],
    180: [left + w * scale, bottom + h * scale],
    270: [left + w * scale, bottom],
  }[angle];
  fitted.drawPage(embedded, {
    x: corner[0],
    y: corner[1],
    width: box.width * scale,
    height: box.height * scale,
    rotate: pdfLib().degrees(-angle),
  });
  return fitted;
}

async function basePage(
  out: PDFDocument,
  planned: PlannedPage,
  docs: Map<string, PDFDocument>,
  copied: Map<string, PDFPage>,
): Promise<PDFPage> {
  const width = planned.width * PT;
  const height = planned.height * PT;
  const base: PageBase = planned.base;
  if (base.kind === 'artwork') return exactPage(out, copied.get(`${base.field}:${base.index}`)!, width, height);
  const page = out.addPage([width, height]);
  if (base.kind === 'region') {
    // The region keeps its place on the page; everything of the artwork outside it is clipped away.
    const { x, y, width: rw, height: rh } = base.region;
    const source = docs.get(base.field)!.getPage(base.index);
    const media = source.getMediaBox();
    const top = media.y + media.height;
    const left = media.x + x * PT;
    const box = { left, right: left + rw * PT, top: top - y * PT, bottom: top - (y + rh) * PT };
    const embedded = await out.embedPage(source, box);
    page.drawPage(embedded, { x: x * PT, y: height - (y + rh) * PT });
  }
  return page;
}

/** Draws the overlay of each planned page that has one, all into one pdfkit PDF. */
async function overlays(plan: PlannedPage[]): Promise<{ bytes: Uint8Array; pageOf: Map<number, number> }> {
  const pageOf = new Map<number, number>();
  const bytes = await drawPdf((doc) => {
    plan.forEach((planned, i) => {
      if (!planned.overlay) return;
      addPage(doc, planned.width, planned.height);
      planned.overlay(doc);
      pageOf.set(i, pageOf.size);
    });
  });
  return { bytes, pageOf };
}

/** The whole piece as one PDF, pages in print order, sizes exact in points. */
export async function composePiece(input: ComposeInput): Promise<Uint8Array> {
  const geometry = input.geometry ?? geometryOf(input.kind, input.size, input.piece.address_placement ?? undefined);
  const docs = await loadSides(input.sides);
  const pageCounts: Record<string, number> = {};
  for (const [field, doc] of docs) pageCounts[field] = doc.getPageCount();
  const plan = planPages({
    piece: input.piece,
    geometry,
    pageCounts,
    deliveryPoint: input.deliveryPoint,
    date: input.date,
    usps: input.usps,
    sample: input.sample,
  });

  // No creation or modification date: the same piece composes to the same bytes on a retry.
  const out = await pdfLib().PDFDocument.create({ updateMetadata: false });
  out.setProducer('printpost');
  out.setCreator('printpost');
  const copied = await copyArtwork(out, plan, docs);
  const drawn = await overlays(plan);
  const marks: PDFEmbeddedPage[] =
    drawn.pageOf.size > 0 ? await out.embedPdf(drawn.bytes, [...Array(drawn.pageOf.size).keys()]) : [];
  for (let i = 0; i < plan.length; i++) {
    const page = await basePage(out, plan[i], docs, copied);
    const mark = drawn.pageOf.get(i);
    if (mark !== undefined) page.drawPage(marks[mark], { x: 0, y: 0 });
  }
  return out.save();
}
