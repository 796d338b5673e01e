// The renderer against the real Chromium that `npm ci` brings: exact sheet sizes whatever the artwork's
// CSS says, pagination and page limits, JavaScript off, no request leaving the browser, remote images
// appearing once inlined by the engine, and more renders at once than warm pages.
import test from 'ava';
import { createRenderer, type PdfRequest } from '../../engine/print/browser';
import { inlineAssets } from '../../engine/print/inline-assets';
import { countingServer, pixelAt, readPdf, redPng, type CountingServer } from './browser-pdf';

const renderer = createRenderer({ pages: 2, systemPaths: [] });
let server: CountingServer;

test.before(async () => {
  server = await countingServer({ '/x.png': ['image/png', await redPng()] });
  await renderer.start();
});
test.after.always(async () => {
  await renderer.close();
  await server?.close();
});

const card = (html: string): PdfRequest => ({ html, widthIn: 6.25, heightIn: 4.25, timeoutMs: 10_000 });
const letter = (html: string, maxPages?: number): PdfRequest => ({
  html,
  widthIn: 8.5,
  heightIn: 11,
  timeoutMs: 10_000,
  maxPages,
});
const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i + 1}`).join(' ');

test('the bundled Chromium is found and reported', (t) => {
  const status = renderer.status();
  t.true(status.available, status.reason);
  t.is(status.source, 'bundled');
  t.regex(status.version ?? '', /Chrome\/\d+/);
  t.true(Number.isInteger(status.pid));
});

test('a 4x6 postcard side renders to one page of exactly 6.25 x 4.25 in', async (t) => {
  const pdf = await renderer.htmlToPdf(card('<div style="width:100%;height:100%;background:#036">Hello</div>'));
  const read = await readPdf(pdf);
  t.is(read.pages, 1);
  t.deepEqual(read.boxes[0], [0, 0, 450, 306]);
  t.true(read.text[0].includes('Hello'));
});

test("the artwork's @page rules cannot change the sheet", async (t) => {
  const styles = [
    '@page { size: A4; margin: 2in }',
    '@page { size: portrait }',
    '@page :first { size: 3in 8in !important }',
    '@page tall { size: 4in 10in; page-orientation: rotate-left } body { page: tall }',
    '@import url("data:text/css,@page{size:letter portrait}");',
  ];
  for (const style of styles) {
    const pdf = await renderer.htmlToPdf(card(`<style>${style}</style><p>front</p>`));
    const read = await readPdf(pdf);
    t.true(read.pages >= 1, style);
    for (const box of read.boxes) t.deepEqual(box, [0, 0, 450, 306], style);
  }
});

test('a letter with three page breaks (old and new properties) gives four letter pages', async (t) => {
  const html = `<p>one</p><p style="page-break-after:always">still one</p><p>two</p>
    <p style="page-break-before:always">three</p><p style="break-before:page">four</p>`;
  const read = await readPdf(await renderer.htmlToPdf(letter(html)));
  t.is(read.pages, 4);
  for (const box of read.boxes) t.deepEqual(box, [0, 0, 612, 792]);
  t.true(read.text[3].includes('four'));
});

test('a long letter flows onto several pages, and maxPages trims it', async (t) => {
  const html = `<div style="padding:1in;font:12pt/1.5 serif">${words(1800)}</div>`;
  const all = await readPdf(await renderer.htmlToPdf(letter(html)));
  t.true(all.pages >= 3, `${all.pages} pages`);
  t.true(all.text[all.pages - 1].includes('word1800'));
  const trimmed = await readPdf(await renderer.htmlToPdf(letter(html, 2)));
  t.is(trimmed.pages, 2);
  t.deepEqual(trimmed.text, all.text.slice(0, 2));
});

test('JavaScript does not run, in frames either (noscript content shows instead)', async (t) => {
  const frame = Buffer.from('<p>framed</p><script>document.write("FRAMESCRIPT")</script>').toString('base64');
  const html = `<p>static</p><script>document.write("SCRIPTED")</script><noscript>NOSCRIPT</noscript>
    <iframe src="data:text/html;base64,${frame}"></iframe>`;
  const read = await readPdf(await renderer.htmlToPdf(card(html)));
  t.false(read.text[0].includes('SCRIPTED'));
  t.false(read.text[0].includes('FRAMESCRIPT'));
  t.true(read.text[0].includes('framed'));
  t.true(read.text[0].includes('static'));
  t.true(read.text[0].includes('NOSCRIPT'));
});

test('nothing leaves the browser: remote references are refused, navigations cancelled', async (t) => {
  const own = await countingServer({ '/x.png': ['image/png', await redPng()] });
  t.teardown(() => own.close());
  const u = own.url;
  const html = `<html><head><link rel=preconnect href="${u}"><link rel=dns-prefetch href="${u}">
    <link rel=stylesheet href="${u}/s.css"><meta http-equiv=refresh content="0;url=${u}/away">
    <style>@import "${u}/i.css"; @font-face{font-family:F;src:url(${u}/f.woff)} body{background:url(${u}/b.png)}</style>
    </head><body><p>kept</p><img src="${u}/x.png" style="width:100%;height:100%"><iframe src="${u}/frame"></iframe>
    <video poster="${u}/v.png"></video><svg><image href="${u}/s.png"/></svg>
    <iframe src="data:text/html,<img src='${u}/in-frame.png'><iframe src='${u}/nested'></iframe>"></iframe></body></html>`;
  const pdf = await renderer.htmlToPdf(card(html));
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.is(own.connections(), 0, 'no connection reached the server');
  t.true((await readPdf(pdf)).text[0].includes('kept'), 'the document was not navigated away');
  const [r, g, b] = await pixelAt(pdf, 0.5, 0.5);
  t.false(r > 200 && g < 60 && b < 60, 'the remote image is not drawn');
});

test('a remote image inlined by the engine appears on the card', async (t) => {
  const html = `<img src="${server.url}/x.png" style="display:block;width:6.25in;height:4.25in"><style>body{margin:0}</style>`;
  const inlined = await inlineAssets(html, { allowedNetworks: ['127.0.0.0/8'] });
  t.deepEqual(inlined.failures, []);
  const pdf = await renderer.htmlToPdf(card(inlined.html));
  const [r, g, b] = await pixelAt(pdf, 0.5, 0.5);
  t.true(r > 200 && g < 60 && b < 60, `pixel ${r},${g},${b}`);
});

test('more renders at once than warm pages all finish', async (t) => {
  const pdfs = await Promise.all(Array.from({ length: 7 }, (_, i) => renderer.htmlToPdf(card(`<p>piece ${i}</p>`))));
  const texts = await Promise.all(pdfs.map(async (pdf) => (await readPdf(pdf)).text[0]));
  texts.forEach((text, i) => t.true(text.includes(`piece ${i}`)));
});
