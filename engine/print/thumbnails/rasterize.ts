// PDF pages to raw pixels, drawn by PDFium (Chromium's PDF engine) compiled to WebAssembly.
// Measured on a two-sided postcard at 1280 px: 27 ms a document against 57 ms with pdfjs-dist on
// @napi-rs/canvas; and a malformed PDF can at worst fail inside the WebAssembly sandbox.
// The package's own document and page classes are bypassed for its exported PDFium module: their
// render draws only 4-byte pixels (its 3-byte 'BGR' passes a wrong format and row length), and
// thumbnails want 3-byte RGB, which spares sharp dropping the alpha (measured: a third of the CPU a
// postcard's thumbnails took, for byte-identical PNGs).
type Pdfium = typeof import('@hyzyla/pdfium', { with: { 'resolution-mode': 'import' } });
type Module = Awaited<ReturnType<Pdfium['PDFiumModule']>>;

export interface RawImage {
  /** `channels` bytes a pixel (RGB or RGBA), rows top to bottom, no padding */
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/** FPDFBitmap_* formats and FPDF_* render flags (fpdfview.h). */
const BITMAP_BGR = 2;
const BITMAP_BGRA = 4;
const FLAG_ANNOT = 0x01;
const FLAG_LCD_TEXT = 0x02;
/** bytes in R, G, B(, A) order instead of PDFium's native B, G, R(, A) */
const FLAG_REVERSE_BYTE_ORDER = 0x10;

/** FPDF_GetLastError codes (fpdfview.h), as the package words them. */
const LOAD_ERRORS: Record<number, string> = {
  2: 'File not found or could not be opened',
  3: 'File not in PDF format or corrupted',
  4: 'Password required or incorrect password',
  5: 'Unsupported security scheme',
  6: 'Page not found or content error',
};

let library: Promise<Module> | undefined;

/** The WebAssembly module, compiled once per thread (about 60 ms) and kept. */
function loadLibrary(): Promise<Module> {
  // The package's CommonJS build, typed by its declarations, which TypeScript reads as ES module ones;
  // required here, at the first thumbnail, so a process that draws none never loads it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  library ??= (require('@hyzyla/pdfium') as Pdfium).PDFiumModule({}).then((module) => {
    // as the package initializes it (the object reaches PDFium as a null config: its defaults)
    module._FPDF_InitLibraryWithConfig({ version: 2, m_pIsolate: null, m_pUserFontPaths: null });
    return module;
  });
  return library;
}

export class RasterPdf {
  private constructor(
    private readonly pdfium: Module,
    /** the file's bytes in PDFium's memory, which it reads for as long as the document is open */
    private readonly bytes: number,
    private readonly doc: number,
  ) {}

  /** Parses `pdf` (copied into PDFium's memory; the caller keeps its bytes). Throws on an unreadable file. */
  static async open(pdf: Uint8Array): Promise<RasterPdf> {
    const pdfium = await loadLibrary();
    const bytes = pdfium.wasmExports.malloc(Math.max(1, pdf.byteLength));
    if (!bytes) throw new Error('PDFium is out of memory for the file');
    pdfium.HEAPU8.set(pdf, bytes);
    const doc = pdfium._FPDF_LoadMemDocument(bytes, pdf.byteLength, 0);
    if (!doc) {
      const code = pdfium._FPDF_GetLastError();
      pdfium.wasmExports.free(bytes);
      throw new Error(LOAD_ERRORS[code] ?? `PDFium could not read the file (error ${code})`);
    }
    return new RasterPdf(pdfium, bytes, doc);
  }

  get pageCount(): number {
    return this.pdfium._FPDF_GetPageCount(this.doc);
  }

  /**
   * Draws page `pageNumber` (1-based) `width` pixels wide (narrower if it would pass `maxHeight`), on
   * white, as RGBA or RGB. RGBA is drawn with LCD-optimized text as the package drew it; PDFium only
   * applies that to bitmaps without alpha, so RGB is drawn without it and gives the same pixels.
   */
  // async as the package's render was, for its callers; PDFium itself draws synchronously
  async rasterize(pageNumber: number, width: number, maxHeight = Infinity, channels: 3 | 4 = 4): Promise<RawImage> {
    const { pdfium } = this;
    const page = pdfium._FPDF_LoadPage(this.doc, pageNumber - 1);
    if (!page) throw new Error(`${LOAD_ERRORS[6]} (page ${pageNumber})`);
    let buffer = 0;
    let bitmap = 0;
    try {
      const originalWidth = pdfium._FPDF_GetPageWidth(page);
      const originalHeight = pdfium._FPDF_GetPageHeight(page);
      const scale = Math.min(width / originalWidth, maxHeight / originalHeight);
      const w = Math.max(1, Math.round(originalWidth * scale));
      const h = Math.max(1, Math.round(originalHeight * scale));
      const row = w * channels;
      buffer = pdfium.wasmExports.malloc(row * h);
      if (!buffer) throw new Error(`PDFium is out of memory for a ${w} x ${h} page`);
      bitmap = pdfium._FPDFBitmap_CreateEx(w, h, channels === 3 ? BITMAP_BGR : BITMAP_BGRA, buffer, row);
      if (!bitmap) throw new Error(`PDFium could not make a ${w} x ${h} bitmap`);
      // white, opaque: a native fill of the rows, where PDFium's own (FPDFBitmap_FillRect) walks them in
      // WebAssembly (measured in the engine: 4 ms a postcard of the thumbnail thread's time)
      pdfium.HEAPU8.fill(0xff, buffer, buffer + row * h);
      const flags = FLAG_ANNOT | FLAG_REVERSE_BYTE_ORDER | (channels === 4 ? FLAG_LCD_TEXT : 0);
      pdfium._FPDF_RenderPageBitmap(bitmap, page, 0, 0, w, h, 0, flags);
      // a copy: the WebAssembly memory is reused (and may move when it grows)
      const data = Buffer.from(pdfium.HEAPU8.slice(buffer, buffer + row * h).buffer);
      return { data, width: w, height: h, channels };
    } finally {
      if (bitmap) pdfium._FPDFBitmap_Destroy(bitmap);
      if (buffer) pdfium.wasmExports.free(buffer);
      pdfium._FPDF_ClosePage(page);
    }
  }

  close(): void {
    this.pdfium._FPDF_CloseDocument(this.doc);
    this.pdfium.wasmExports.free(this.bytes);
  }
}
