// pdfjs-dist for tests that read text back (the engine itself rasterizes with PDFium). It is ESM
// only: loaded once with a dynamic import and kept. Fonts a PDF does not embed come from its
// standard_fonts folder, read from disk (never fetched).
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs', { with: { 'resolution-mode': 'import' } });
export type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let loading: Promise<PdfJs> | undefined;

export function loadPdfJs(): Promise<PdfJs> {
  // by file URL: a bare specifier fails when this CommonJS file is itself loaded from an ES module
  const entry = pathToFileURL(require.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href;
  loading ??= import(entry) as Promise<PdfJs>;
  return loading;
}

const root = path.dirname(require.resolve('pdfjs-dist/package.json'));
/** pdfjs wants these as folder URLs ending in a slash; in Node they are read with fs. */
const folder = (name: string) => path.join(root, name) + path.sep;

/** Opens a PDF for drawing. The bytes are copied: pdfjs takes ownership of (detaches) what it is given. */
export async function openPdf(pdf: Uint8Array): Promise<PdfDocument> {
  const pdfjs = await loadPdfJs();
  return pdfjs.getDocument({
    data: new Uint8Array(pdf),
    standardFontDataUrl: folder('standard_fonts'),
    cMapUrl: folder('cmaps'),
    cMapPacked: true,
    wasmUrl: folder('wasm'),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
}
