// One PDF page to raw RGBA pixels at a given width, drawn by pdfjs onto an @napi-rs/canvas.
import { createCanvas } from '@napi-rs/canvas';
import type { PdfDocument } from './pdfjs';

export interface RawImage {
  /** RGBA, 4 bytes a pixel, rows top to bottom */
  data: Buffer;
  width: number;
  height: number;
}

/** Draws page `pageNumber` (1-based) `width` pixels wide (narrower if it would pass `maxHeight`), on white. */
export async function rasterizePage(
  doc: PdfDocument,
  pageNumber: number,
  width: number,
  maxHeight = Infinity,
): Promise<RawImage> {
  const page = await doc.getPage(pageNumber);
  try {
    const unscaled = page.getViewport({ scale: 1 });
    const viewport = page.getViewport({ scale: Math.min(width / unscaled.width, maxHeight / unscaled.height) });
    const canvas = createCanvas(Math.round(viewport.width), Math.round(viewport.height));
    // pdfjs's types name DOM canvases; @napi-rs/canvas implements the part it uses
    const canvasContext = canvas.getContext('2d') as unknown as CanvasRenderingContext2DLike;
    await page.render({ canvas: null, canvasContext, viewport, background: 'white' } as RenderParameters).promise;
    // data() is a view of the canvas's own memory, freed with the canvas: copy it out
    return { data: Buffer.from(canvas.data()), width: canvas.width, height: canvas.height };
  } finally {
    page.cleanup();
  }
}

type RenderParameters = Parameters<Awaited<ReturnType<PdfDocument['getPage']>>['render']>[0];
type CanvasRenderingContext2DLike = RenderParameters['canvasContext'];
