// How much a PDF becomes once opened: every compressed stream inflated (object streams, page contents,
// images) and every image at its pixel size, counted against a budget before anything parses the file.
// A 1 MB file can inflate to gigabytes (a decompression bomb); the parsers and rasterizers after this
// (pdf-lib, PDFium) would hold all of it. Inflating runs in zlib's thread pool, a stream at a time,
// its output counted and dropped: the event loop stays free and memory stays at one chunk, and it
// stops at the first byte past the budget.
import { createInflate } from 'node:zlib';

const STREAM = Buffer.from('stream');
const END_STREAM = Buffer.from('endstream');
/** how far before `stream` its dictionary is looked for */
const DICT_WINDOW = 4096;
/** bytes per pixel counted for an image XObject: what a rasterizer holds it as (RGBA) */
const PIXEL_BYTES = 4;

/** What a PDF may decode to, in bytes, by kind of stream. */
export interface DecodeBudget {
  /** everything: inflated streams, images at their pixel size */
  total: number;
  /** object streams: PDF objects the parser reads at once (legitimately a few MB) */
  objects: number;
  /** page contents, forms and fonts: what is interpreted to draw a page */
  drawing: number;
}

export type StreamKind = 'images' | 'objects' | 'drawing';

export interface DecodedSize {
  /** bytes counted by kind until the scan stopped */
  counted: Record<StreamKind, number>;
  /** the budget that was passed (the scan stopped there), if any */
  over?: keyof DecodeBudget;
}

/** The dictionary text in front of the `stream` keyword at `at` (latin1; from its `obj`, or a window). */
function dictBefore(pdf: Buffer, at: number): string {
  const from = Math.max(0, at - DICT_WINDOW);
  const head = pdf.toString('latin1', from, at);
  const obj = head.lastIndexOf(' obj');
  return obj >= 0 ? head.slice(obj) : head;
}

const number = (dict: string, key: string): number => {
  const found = new RegExp(`/${key}\\s+(\\d{1,9})(?![\\d.\\s]*R)`).exec(dict);
  return found ? Number(found[1]) : 0;
};

/** Inflated length of `data`, stopping once it passes `limit` (then limit + 1); a broken stream counts what it gave. */
function inflatedLength(data: Buffer, limit: number): Promise<number> {
  return new Promise((resolve) => {
    let total = 0;
    let settled = false;
    const inflate = createInflate({ chunkSize: 64 * 1024 });
    const finish = () => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(total);
    };
    inflate.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        total = limit + 1;
        finish();
      }
    });
    inflate.on('end', finish);
    inflate.on('error', finish);
    inflate.end(data);
  });
}

function kindOf(dict: string): StreamKind {
  if (/\/Subtype\s*\/Image\b/.test(dict)) return 'images';
  if (/\/Type\s*\/ObjStm\b/.test(dict)) return 'objects';
  return 'drawing';
}

/** The budget `counted` passes, if any. */
function passed(counted: Record<StreamKind, number>, budget: DecodeBudget): keyof DecodeBudget | undefined {
  if (counted.objects > budget.objects) return 'objects';
  if (counted.drawing > budget.drawing) return 'drawing';
  if (counted.images + counted.objects + counted.drawing > budget.total) return 'total';
  return undefined;
}

/**
 * What `pdf` decodes to, counted against `budget`: the inflated size of its Flate streams, an image at
 * least at its pixel size (a JPEG inside a PDF is small on disk and large on the page).
 */
export async function decodedSize(pdf: Buffer, budget: DecodeBudget): Promise<DecodedSize> {
  const counted: Record<StreamKind, number> = { images: 0, objects: 0, drawing: 0 };
  const room = (kind: StreamKind) => {
    const total = budget.total - counted.images - counted.objects - counted.drawing;
    return Math.max(0, kind === 'images' ? total : Math.min(total, budget[kind] - counted[kind]));
  };
  let at = pdf.indexOf(STREAM);
  while (at >= 0) {
    const isKeyword = pdf.toString('latin1', Math.max(0, at - 3), at) !== 'end';
    let start = at + STREAM.length;
    if (pdf[start] === 0x0d) start++;
    if (isKeyword && pdf[start] === 0x0a) {
      start++;
      const end = pdf.indexOf(END_STREAM, start);
      const stop = end < 0 ? pdf.length : end;
      const dict = dictBefore(pdf, at);
      const kind = kindOf(dict);
      const pixels = kind === 'images' ? number(dict, 'Width') * number(dict, 'Height') * PIXEL_BYTES : 0;
      const inflated = /\/(FlateDecode|Fl)\b/.test(dict)
        ? await inflatedLength(pdf.subarray(start, stop), Math.max(room(kind), pixels))
        : 0;
      counted[kind] += Math.max(pixels, inflated);
      const over = passed(counted, budget);
      if (over) return { counted, over };
      at = pdf.indexOf(STREAM, stop + END_STREAM.length);
      continue;
    }
    at = pdf.indexOf(STREAM, at + STREAM.length);
  }
  return { counted };
}
