// Hostile artwork files for the fuzz suite and the bomb tests: decompression bombs of each kind, wrong
// magic bytes, an encrypted PDF, PDFs of no page and of 10,000 pages, and one valid side for contrast.
// Each is built on first use and kept (about 2 s for all, mostly deflating the bombs' zeros): at most
// 1.2 MB each, so sending one costs the engine its checks, not the transfer.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import { PDFDocument, PDFName, PDFPageLeaf, type PDFRef } from 'pdf-lib';
import { minimalPdf } from '../helpers/mail';
import { bombPdf, encryptedPdf, pdfOf } from '../domain/artwork/pdf-fixtures';

export interface HostileFile {
  /** what it is, for a failure report */
  what: string;
  /** the filename it is sent under */
  filename: string;
  make(): Promise<Buffer>;
  /** the engine must refuse it as any mailpiece's artwork (false: it may be taken, e.g. the valid side) */
  refused: boolean;
}

const crc32 = (bytes: Buffer) => {
  let crc = -1;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ -1) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/** A valid 1-bit greyscale PNG of width x height px, all white: a few hundred KB for 19000x12920. */
export function hugePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0;
  const raw = Buffer.alloc(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * `count` empty 4x6 postcard-side pages. The leaves are pushed onto the page tree directly: pdf-lib's
 * addPage recounts every page each time (quadratic, 4 s for 10,000), this takes a quarter second.
 */
export async function manyPagePdf(count: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const tree = doc.catalog.Pages();
  const treeRef = doc.catalog.get(PDFName.of('Pages')) as PDFRef;
  for (let i = 0; i < count; i++) {
    const leaf = PDFPageLeaf.withContextAndParent(doc.context, treeRef);
    leaf.set(PDFName.of('MediaBox'), doc.context.obj([0, 0, 6.25 * 72, 4.25 * 72]));
    tree.pushLeafNode(doc.context.register(leaf));
  }
  // no object streams, and no yielding every 50 objects: a third of the time, for a 1.2 MB file
  return Buffer.from(await doc.save({ addDefaultPage: false, useObjectStreams: false, objectsPerTick: Infinity }));
}

/** `length` bytes that look random but are the same every run, so a failure replays. */
function noise(length: number, seed: string): Buffer {
  const out: Buffer[] = [];
  for (let i = 0; out.length * 32 < length; i++) out.push(createHash('sha256').update(`${seed}:${i}`).digest());
  return Buffer.concat(out).subarray(0, length);
}

const onePixelPng = () => hugePng(1, 1);

/** The files, each built on first use (the bombs take about a second to deflate) and kept. */
export const HOSTILE_FILES: readonly HostileFile[] = [
  { what: 'an object-stream bomb', filename: 'bomb.pdf', make: () => bombPdf('objects', 48), refused: true },
  { what: 'a page-content bomb', filename: 'bomb.pdf', make: () => bombPdf('drawing', 96), refused: true },
  { what: 'an image XObject of 30000x30000 px', filename: 'bomb.pdf', make: () => bombPdf('image'), refused: true },
  { what: 'a PNG of 19000x12920 px', filename: 'bomb.png', make: async () => hugePng(19000, 12920), refused: true },
  { what: 'a .pdf that is a 1x1 PNG', filename: 'art.pdf', make: async () => onePixelPng(), refused: true },
  { what: 'random bytes', filename: 'art.pdf', make: async () => noise(4096, 'random'), refused: true },
  {
    what: 'random bytes after a PDF header',
    filename: 'art.pdf',
    make: async () => Buffer.concat([Buffer.from('%PDF-1.7\n'), noise(4096, 'pdf')]),
    refused: true,
  },
  { what: 'an encrypted PDF', filename: 'locked.pdf', make: encryptedPdf, refused: true },
  { what: 'a PDF of no page', filename: 'empty.pdf', make: () => pdfOf([]), refused: true },
  { what: 'a PDF of 10,000 pages', filename: 'long.pdf', make: () => manyPagePdf(10_000), refused: true },
  { what: 'a valid 4x6 side', filename: 'side.pdf', make: async () => minimalPdf('Hello'), refused: false },
];

const built = new Map<HostileFile, Promise<Buffer>>();

export function bytesOf(file: HostileFile): Promise<Buffer> {
  let bytes = built.get(file);
  if (!bytes) {
    bytes = file.make();
    built.set(file, bytes);
  }
  return bytes;
}
