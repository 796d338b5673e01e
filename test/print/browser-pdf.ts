// Reading rendered PDFs back in the renderer's tests: pages, sheet sizes, text, a pixel's colour; and a
// local server that counts what reaches it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { RasterPdf } from '../../engine/print/thumbnails/rasterize';
import { openPdf } from './pdfjs';

export interface PdfRead {
  pages: number;
  /** each page's MediaBox */
  boxes: number[][];
  /** each page's text */
  text: string[];
}

export async function readPdf(pdf: Uint8Array): Promise<PdfRead> {
  const doc = await openPdf(pdf);
  try {
    const boxes: number[][] = [];
    const text: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      boxes.push([...page.view]);
      const content = await page.getTextContent();
      text.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
    }
    return { pages: doc.numPages, boxes, text };
  } finally {
    await doc.destroy();
  }
}

/** RGB of the pixel at (x, y), as fractions of the page, of page `page` drawn 300 px wide. */
export async function pixelAt(pdf: Uint8Array, x: number, y: number, page = 1): Promise<[number, number, number]> {
  const doc = await RasterPdf.open(pdf);
  try {
    const image = await doc.rasterize(page, 300);
    const i = (Math.floor(y * image.height) * image.width + Math.floor(x * image.width)) * 4;
    return [image.data[i], image.data[i + 1], image.data[i + 2]];
  } finally {
    doc.close();
  }
}

export const redPng = (width = 60, height = 40) =>
  sharp({ create: { width, height, channels: 3, background: { r: 255, g: 0, b: 0 } } })
    .png()
    .toBuffer();

export interface CountingServer {
  url: string;
  /** requests by path */
  hits: Map<string, number>;
  /** TCP connections accepted (a preconnect opens one without a request) */
  connections: () => number;
  close(): Promise<void>;
}

/** Serves `routes` (path -> [content type, body]) on 127.0.0.1; unknown paths 404; `/hang` never answers. */
export async function countingServer(routes: Record<string, [string, Buffer | string]>): Promise<CountingServer> {
  const hits = new Map<string, number>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/hang') return;
    const route = routes[path];
    if (!route) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': route[0] }).end(route[1]);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
