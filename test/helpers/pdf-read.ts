// Reads a PDF back the way a test wants to look at it, through pdfjs (the same parser a viewer
// uses): page sizes in points, text items with their boxes, and the painted paths with their boxes
// after every transform, so a test can ask "what is inside this zone" in the zone's own terms.
// Boxes are in points from the page's top-left corner, like the zones in engine/catalog/products.ts.
import path from 'node:path';

export interface PdfBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface PdfText extends PdfBox {
  str: string;
  fontSize: number;
}

/** One subpath of a filled or stroked path. */
export interface PdfShape extends PdfBox {
  paint: 'fill' | 'stroke';
  /** the fill or stroke colour, '#rrggbb' */
  color: string;
  /** an axis-aligned rectangle (four corners, nothing else) */
  rect: boolean;
}

export interface PdfPageRead {
  width: number;
  height: number;
  text: PdfText[];
  shapes: PdfShape[];
}

export interface PdfRead {
  pageCount: number;
  pages: PdfPageRead[];
}

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const multiply = (a: Matrix, b: ArrayLike<number>): Matrix => [
  a[0] * b[0] + a[2] * b[1],
  a[1] * b[0] + a[3] * b[1],
  a[0] * b[2] + a[2] * b[3],
  a[1] * b[2] + a[3] * b[3],
  a[0] * b[4] + a[2] * b[5] + a[4],
  a[1] * b[4] + a[3] * b[5] + a[5],
];
const apply = (m: Matrix, x: number, y: number): [number, number] => [
  m[0] * x + m[2] * y + m[4],
  m[1] * x + m[3] * y + m[5],
];

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs', { with: { 'resolution-mode': 'import' } });
type PageProxy = import('pdfjs-dist/legacy/build/pdf.mjs', { with: { 'resolution-mode': 'import' } }).PDFPageProxy;
let pdfjs: Promise<PdfJs> | undefined;
const load = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

// pdfjs's path buffer: an op code followed by its coordinates.
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;
const ARGS: Record<number, number> = { 0: 2, 1: 2, 2: 6, 3: 4, 4: 0 };

/** Splits a path buffer into subpaths, each a list of points in page space. */
function subpaths(buffer: ArrayLike<number>, ctm: Matrix): [number, number][][] {
  const result: [number, number][][] = [];
  let current: [number, number][] = [];
  for (let k = 0; k < buffer.length;) {
    const op = buffer[k++];
    const n = ARGS[op] ?? 0;
    if (op === DRAW.moveTo && current.length > 0) {
      result.push(current);
      current = [];
    }
    for (let j = 0; j < n; j += 2) current.push(apply(ctm, buffer[k + j], buffer[k + j + 1]));
    k += n;
  }
  if (current.length > 0) result.push(current);
  return result;
}

function shapeOf(points: [number, number][], pageHeight: number, paint: 'fill' | 'stroke', color: string): PdfShape {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const onEdge = (v: number, a: number, b: number) => Math.abs(v - a) < 0.01 || Math.abs(v - b) < 0.01;
  const corners = points.filter((p, i) => i < 4 || Math.hypot(p[0] - points[0][0], p[1] - points[0][1]) > 0.01);
  const rect = corners.length === 4 && points.every((p) => onEdge(p[0], x0, x1) && onEdge(p[1], y0, y1));
  return { left: x0, top: pageHeight - y1, width: x1 - x0, height: y1 - y0, paint, color, rect };
}

async function readPage(lib: PdfJs, page: PageProxy) {
  const [x0, y0, x1, y1] = page.view;
  const height = y1 - y0;
  const content = await page.getTextContent();
  const text: PdfText[] = [];
  for (const item of content.items) {
    if (!('str' in item) || item.str === '') continue;
    const [, b, , d, e, f] = item.transform as number[];
    const fontSize = Math.hypot(b, d);
    text.push({ str: item.str, left: e - x0, top: y1 - f - fontSize, width: item.width, height: fontSize, fontSize });
  }
  const { OPS } = lib;
  const fills = new Set<number>([
    OPS.fill,
    OPS.eoFill,
    OPS.fillStroke,
    OPS.eoFillStroke,
    OPS.closeFillStroke,
    OPS.closeEOFillStroke,
  ]);
  const strokes = new Set<number>([OPS.stroke, OPS.closeStroke]);
  const list = await page.getOperatorList();
  const shapes: PdfShape[] = [];
  let state = { ctm: multiply(IDENTITY, [1, 0, 0, 1, -x0, -y0]), fill: '#000000', stroke: '#000000' };
  const stack: (typeof state)[] = [];
  list.fnArray.forEach((fn, i) => {
    const args = list.argsArray[i] as unknown[];
    if (fn === OPS.save) stack.push({ ...state });
    else if (fn === OPS.restore) state = stack.pop() ?? state;
    else if (fn === OPS.transform) state = { ...state, ctm: multiply(state.ctm, args as number[]) };
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push({ ...state });
      const matrix = args[0] as ArrayLike<number> | null;
      if (matrix) state = { ...state, ctm: multiply(state.ctm, matrix) };
    } else if (fn === OPS.paintFormXObjectEnd) state = stack.pop() ?? state;
    else if (fn === OPS.setFillRGBColor) state = { ...state, fill: String(args[0]) };
    else if (fn === OPS.setStrokeRGBColor) state = { ...state, stroke: String(args[0]) };
    else if (fn === OPS.constructPath) {
      const [paintOp, [buffer]] = args as [number, [ArrayLike<number> | null]];
      const paint = fills.has(paintOp) ? 'fill' : strokes.has(paintOp) ? 'stroke' : undefined;
      if (!paint || !buffer) return;
      const color = paint === 'fill' ? state.fill : state.stroke;
      for (const points of subpaths(buffer, state.ctm)) shapes.push(shapeOf(points, height, paint, color));
    }
  });
  return { width: x1 - x0, height, text, shapes };
}

async function openPdf(lib: PdfJs, bytes: Uint8Array) {
  const fonts = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;
  return lib.getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: fonts,
    verbosity: lib.VerbosityLevel.ERRORS,
    isEvalSupported: false,
  }).promise;
}

/** Page count, sizes, text and painted shapes of every page. */
export async function readPdf(bytes: Uint8Array): Promise<PdfRead> {
  const lib = await load();
  const doc = await openPdf(lib, bytes);
  try {
    const pages: PdfPageRead[] = [];
    for (let n = 1; n <= doc.numPages; n++) pages.push(await readPage(lib, await doc.getPage(n)));
    return { pageCount: doc.numPages, pages };
  } finally {
    await doc.destroy();
  }
}

/**
 * Rasterizes page `pageNumber` (from 1) at `scale` pixels a point and gives the colour at a point
 * (points from the top-left) as [r, g, b]: what clipping and knockouts actually leave visible.
 */
export async function renderPage(
  bytes: Uint8Array,
  pageNumber: number,
  scale = 2,
): Promise<(left: number, top: number) => [number, number, number]> {
  const lib = await load();
  const { createCanvas } = await import('@napi-rs/canvas');
  const doc = await openPdf(lib, bytes);
  try {
    const page = await doc.getPage(pageNumber);
    const viewport = page.getViewport({ scale });
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const context = canvas.getContext('2d');
    // @napi-rs/canvas stands in for the DOM canvas pdfjs is typed against
    await page.render({ canvas: canvas as never, canvasContext: context as never, viewport }).promise;
    const { data, width } = context.getImageData(0, 0, canvas.width, canvas.height);
    return (left, top) => {
      const i = (Math.floor(top * scale) * width + Math.floor(left * scale)) * 4;
      return [data[i], data[i + 1], data[i + 2]];
    };
  } finally {
    await doc.destroy();
  }
}

/** A zone in inches (products.ts) as a box in points. */
export const zoneBox = (zone: { x: number; y: number; width: number; height: number }): PdfBox => ({
  left: zone.x * 72,
  top: zone.y * 72,
  width: zone.width * 72,
  height: zone.height * 72,
});

/** Whether `box` lies within `zone`, give or take `slack` points. */
export function inside(box: PdfBox, zone: PdfBox, slack = 0.5): boolean {
  return (
    box.left >= zone.left - slack &&
    box.top >= zone.top - slack &&
    box.left + box.width <= zone.left + zone.width + slack &&
    box.top + box.height <= zone.top + zone.height + slack
  );
}

/** The text strings of a page that lie within `zone`. */
export const textIn = (page: PdfPageRead, zone: PdfBox): string[] =>
  page.text.filter((t) => inside(t, zone, 2)).map((t) => t.str);

/** The filled shapes of a page within `zone`, optionally of one colour. */
export const fillsIn = (page: PdfPageRead, zone: PdfBox, color?: string): PdfShape[] =>
  page.shapes.filter((s) => s.paint === 'fill' && inside(s, zone) && (color === undefined || s.color === color));
