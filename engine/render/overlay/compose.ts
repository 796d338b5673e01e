// One print-ready PDF for a whole piece: the customer's artwork pages (already at the product's size)
// with the engine's marks laid over them. pdfkit draws every overlay page into one PDF; pdf-lib copies
// the artwork pages and draws each overlay page on top as an embedded form, so the artwork stays as
// rendered and the marks stay vector.
import { PDFDocument, type PDFEmbeddedPage, type PDFPage } from 'pdf-lib';
import { geometryOf, type ProductGeometry } from '../products';
import { addPage, drawPdf, PT } from './pdf-doc';
import { type PageBase, type PlannedPage, planPages } from './plan';
import type { OverlayPiece } from './types';

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
}

/** Pages whose size is off by less than this (rounding in the renderer) are set to the exact size. */
const SIZE_TOLERANCE = 1;

async function loadSides(sides: ComposeInput['sides']): Promise<Map<string, PDFDocument>> {
  const loaded = new Map<string, PDFDocument>();
  for (const [field, bytes] of Object.entries(sides)) {
    if (bytes && bytes.length > 0) loaded.set(field, await PDFDocument.load(bytes, { updateMetadata: false }));
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

/** An artwork page at exactly the planned size: trued up when within rounding, else scaled to fit. */
async function exactPage(out: PDFDocument, page: PDFPage, width: number, height: number): Promise<PDFPage> {
  const { width: w, height: h } = page.getSize();
  if (Math.abs(w - width) <= SIZE_TOLERANCE && Math.abs(h - height) <= SIZE_TOLERANCE) {
    page.setMediaBox(0, 0, width, height);
    page.setCropBox(0, 0, width, height);
    return out.addPage(page);
  }
  const fitted = out.addPage([width, height]);
  const embedded = await out.embedPage(page);
  const scale = Math.min(width / w, height / h);
  fitted.drawPage(embedded, {
    x: (width - w * scale) / 2,
    y: (height - h * scale) / 2,
    width: w * scale,
    height: h * scale,
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
    const top = source.getHeight();
    const box = { left: x * PT, right: (x + rw) * PT, top: top - y * PT, bottom: top - (y + rh) * PT };
    const embedded = await out.embedPage(source, box);
    page.drawPage(embedded, { x: box.left, y: height - (y + rh) * PT });
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
  });

  // No creation or modification date: the same piece composes to the same bytes on a retry.
  const out = await PDFDocument.create({ updateMetadata: false });
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
