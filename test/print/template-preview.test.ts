// The template preview (engine/domain/rendering/preview.ts) on the real Chromium `npm ci` brings: a
// side drawn at its product's sheet size, changed HTML drawing a changed image, merge variables
// merged, the ink-free zone drawn where catalog/products.ts puts it, and its bounds (product, size,
// side, length) refused as 422s.
import test from 'ava';
import { createPreviewer } from '../../engine/domain/rendering/preview';
import { loadConfig } from '../../engine/platform/config';
import { INK_FREE } from '../../engine/catalog/products';
import { sharp } from '../../engine/base/packages';
import { ApiError } from '../../engine/base/errors';

const previewer = createPreviewer(loadConfig({ RENDER_IDLE_MS: '0' }));
test.after.always(() => previewer.close());

const FULL = (color: string, text = '') =>
  `<html><body style="margin:0"><div style="width:100vw;height:100vh;background:${color}">${text}</div></body></html>`;

/** The RGB of the PNG's pixel at a point given in inches from the top-left of a sheet of `widthIn`. */
async function pixel(png: Buffer, widthIn: number, xIn: number, yIn: number): Promise<[number, number, number]> {
  const { data, info } = await sharp()(png).raw().toBuffer({ resolveWithObject: true });
  const scale = info.width / widthIn;
  const at = (Math.round(yIn * scale) * info.width + Math.round(xIn * scale)) * info.channels;
  return [data[at], data[at + 1], data[at + 2]];
}

test.serial('a postcard back is drawn at its sheet size; changed HTML draws a changed image', async (t) => {
  const blue = await previewer.preview({ html: FULL('#0000ff'), kind: 'postcards', size: '6x9', side: 'back' });
  t.is(blue.widthIn, 9.25);
  t.is(blue.heightIn, 6.25);
  const meta = await sharp()(blue.png).metadata();
  t.is(Math.round(((meta.width ?? 0) / (meta.height ?? 1)) * 100), Math.round((9.25 / 6.25) * 100));
  const [r, g, b] = await pixel(blue.png, blue.widthIn, 1, 1);
  t.true(b > 200 && r < 60 && g < 60, `blue at (1, 1): ${r},${g},${b}`);
  const red = await previewer.preview({ html: FULL('#ff0000'), kind: 'postcards', size: '6x9', side: 'back' });
  const [r2, , b2] = await pixel(red.png, red.widthIn, 1, 1);
  t.true(r2 > 200 && b2 < 60, `red at (1, 1): ${r2},${b2}`);
  t.is(new TextDecoder().decode(blue.pdf.slice(0, 5)), '%PDF-');
});

test.serial('the ink-free zone is drawn over the design where the catalog puts it, only when asked', async (t) => {
  const zone = INK_FREE.postcards['4x6'].inkFree;
  const centre = [zone.x + zone.width / 2, zone.y + zone.height / 2] as const;
  const plain = await previewer.preview({ html: FULL('#ffffff'), kind: 'postcards', size: '4x6', side: 'back' });
  t.deepEqual(plain.zones, []);
  t.deepEqual(await pixel(plain.png, plain.widthIn, ...centre), [255, 255, 255]);
  const shown = await previewer.preview({
    html: FULL('#ffffff'),
    kind: 'postcards',
    size: '4x6',
    side: 'back',
    zones: true,
  });
  t.deepEqual(shown.zones, [zone]);
  const [r, g, b] = await pixel(shown.png, shown.widthIn, ...centre);
  t.true(r > 200 && g > 200 && b < 200, `yellowish inside the zone: ${r},${g},${b}`);
  t.deepEqual(await pixel(shown.png, shown.widthIn, 0.5, 0.5), [255, 255, 255], 'nothing outside it');
});

test.serial('merge variables are merged; a letter page shows its address zones', async (t) => {
  const html = '<p style="font-size:40px">{{name}}</p>';
  const merged = await previewer.preview({
    html,
    kind: 'letters',
    size: 'us_letter',
    side: 'file',
    mergeVariables: { name: 'Ada' },
    zones: true,
  });
  t.is(merged.widthIn, 8.5);
  t.is(merged.zones.length, 2, 'address and return zones');
});

test.serial(
  'bounds: unknown product, size or side, overlong HTML, and a design that cannot draw are 422s',
  async (t) => {
    const refused = async (request: Parameters<typeof previewer.preview>[0], pattern: RegExp) => {
      const error = await t.throwsAsync(previewer.preview(request));
      t.true(error instanceof ApiError && error.status === 422, String(error));
      t.regex(error?.message ?? '', pattern);
    };
    const html = FULL('#fff');
    await refused({ html, kind: 'checks', size: 'us_letter', side: 'file' }, /product must be one of/);
    await refused(
      { html, kind: 'postcards', size: '5x7', side: 'back' },
      /size of postcards must be one of 4x6, 6x9, 6x11/,
    );
    await refused(
      { html, kind: 'postcards', size: '4x6', side: 'inside' },
      /side of postcards must be one of front, back/,
    );
    await refused({ html: 'x'.repeat(200_001), kind: 'postcards', size: '4x6', side: 'back' }, /longer than/);
    await refused({ html: '{{#if}}', kind: 'postcards', size: '4x6', side: 'back' }, /could not be drawn/);
  },
);
