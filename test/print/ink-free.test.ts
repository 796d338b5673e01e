// The engine's marks stay inside the vendor's ink-free area: a design that floods every sheet with
// one colour is rendered through a real engine for every card, mailer and snap pack size, and every
// pixel outside the addressed side's ink-free area must still be that colour (the plain side's
// everywhere), while inside it the engine has printed its knockout and marks.
import test from 'ava';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard, selfMailer, snapPack } from '../helpers/mail';
import { geometryOf, INK_FREE, type Zone } from '../../engine/catalog/products';
import { RasterPdf, type RawImage } from '../../engine/print/thumbnails/rasterize';
import { create, download, settled } from './helpers';

let engine: TestEngine;
let call: ReturnType<typeof client>;

test.before(async () => {
  engine = await startEngine({ workers: true });
  call = client(engine.url, engine.keys.test);
});
test.after.always(() => engine?.close());

const FLOOD: [number, number, number] = [0x33, 0x66, 0xcc];
const flood = '<html><body style="margin:0;background:#3366cc"></body></html>';
const PX_PER_INCH = 40;
/** a zone edge falls between pixels: the pixel it cuts is blended, so one pixel around it is not judged */
const EDGE_PX = 1;
const TOLERANCE = 3;

const isFlood = (image: RawImage, i: number) =>
  FLOOD.every((value, c) => Math.abs(image.data[i * 4 + c] - value) <= TOLERANCE);

function inside(zone: Zone | undefined, x: number, y: number): boolean {
  if (!zone) return false;
  const left = zone.x * PX_PER_INCH - EDGE_PX;
  const top = zone.y * PX_PER_INCH - EDGE_PX;
  const right = (zone.x + zone.width) * PX_PER_INCH + EDGE_PX;
  const bottom = (zone.y + zone.height) * PX_PER_INCH + EDGE_PX;
  return x + 1 > left && x < right && y + 1 > top && y < bottom;
}

/** Pixels outside `zone` that are not the flood colour, and how many inside it are (the marks). */
function census(image: RawImage, zone: Zone | undefined) {
  let strayOutside = 0;
  let markedInside = 0;
  let firstStray = '';
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = y * image.width + x;
      if (isFlood(image, i)) continue;
      if (inside(zone, x, y)) markedInside++;
      else {
        strayOutside++;
        firstStray ||= `(${x}, ${y}) px = (${(x / PX_PER_INCH).toFixed(2)}, ${(y / PX_PER_INCH).toFixed(2)}) in`;
      }
    }
  }
  return { strayOutside, markedInside, firstStray };
}

const products: [string, string, Record<string, unknown>][] = [
  ...Object.keys(INK_FREE.postcards).map(
    (size) =>
      ['postcards', size, postcard({ size, front: flood, back: flood })] as [string, string, Record<string, unknown>],
  ),
  ...Object.keys(INK_FREE.self_mailers).map(
    (size) =>
      ['self_mailers', size, selfMailer({ size, inside: flood, outside: flood })] as [
        string,
        string,
        Record<string, unknown>,
      ],
  ),
  ['snap_packs', '', snapPack({ inside: flood, outside: flood })],
];

for (const [kind, size, body] of products) {
  test(`${kind} ${size || 'default'}: nothing printed outside the ink-free area`, async (t) => {
    const created = await create(call, `/v1/${kind}`, body);
    const piece = await settled(call, `/v1/${kind}`, created.id, 60_000, true);
    t.is(piece.status, 'rendered', JSON.stringify(piece.failure_reason));
    const file = await download(piece.url!);
    const pdf = await RasterPdf.open(file.bytes);
    const geometry = geometryOf(kind, size);
    t.is(pdf.pageCount, geometry.sides.length);
    try {
      for (const [index, side] of geometry.sides.entries()) {
        const image = await pdf.rasterize(index + 1, Math.round(side.width * PX_PER_INCH));
        t.is(image.height, Math.round(side.height * PX_PER_INCH), `${side.field}: page height`);
        const seen = census(image, side.inkFree);
        t.is(seen.strayOutside, 0, `${side.field}: first stray pixel at ${seen.firstStray}`);
        if (side.inkFree) t.true(seen.markedInside > 0, `${side.field}: the marks are inside the ink-free area`);
      }
    } finally {
      pdf.close();
    }
  });
}

test('every ink-free area lies on its sheet, and the marks are laid out inside it', (t) => {
  for (const [kind, entries] of Object.entries(INK_FREE)) {
    for (const size of Object.keys(entries)) {
      const addressed = geometryOf(kind, kind === 'snap_packs' ? '' : size).sides[1];
      const zone = addressed.inkFree!;
      t.true(zone.x >= 0 && zone.y >= 0, `${kind} ${size}`);
      t.true(zone.x + zone.width <= addressed.width && zone.y + zone.height <= addressed.height, `${kind} ${size}`);
      for (const part of [addressed.addressZone!, addressed.returnZone!, addressed.postageZone!]) {
        t.true(part.x >= zone.x - 1e-9 && part.y >= zone.y - 1e-9, `${kind} ${size}: ${JSON.stringify(part)}`);
        t.true(part.x + part.width <= zone.x + zone.width + 1e-9, `${kind} ${size}: ${JSON.stringify(part)}`);
        t.true(part.y + part.height <= zone.y + zone.height + 1e-9, `${kind} ${size}: ${JSON.stringify(part)}`);
      }
    }
  }
});

test('self mailer sheets are the vendor sizes: 11x9 and 12x9 bifolds are portrait 9.25 in wide', (t) => {
  const sheet = (size: string) => geometryOf('self_mailers', size).sides.map((s) => [s.width, s.height]);
  t.deepEqual(sheet('6x18_bifold'), [
    [18.25, 6.25],
    [18.25, 6.25],
  ]);
  t.deepEqual(sheet('11x9_bifold'), [
    [9.25, 11.25],
    [9.25, 11.25],
  ]);
  t.deepEqual(sheet('12x9_bifold'), [
    [9.25, 12.25],
    [9.25, 12.25],
  ]);
  // the 6x18's address stays on its own panel: left of the centre fold
  const outside = geometryOf('self_mailers', '6x18_bifold').sides[1];
  t.true(outside.inkFree!.x + outside.inkFree!.width < outside.width / 2);
});
