// The engine fetching what an HTML artwork names, against a local server (allowed as 127.0.0.0/8):
// every kind of reference becomes a data: URL, each URL is fetched once, and refusals, the total size
// cap and timeouts come back as typed failures naming the URL.
import test from 'ava';
import { describeAssetFailure, inlineAssets } from '../../engine/print/inline-assets';
import { scanCss, scanHtml } from '../../engine/print/asset-refs';
import { countingServer, redPng } from './browser-pdf';

const LOCAL = { allowedNetworks: ['127.0.0.0/8'] };
const dataUrls = (html: string) => html.match(/data:[^"')\s]+/g) ?? [];
const decoded = (url: string) => Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString('utf8');

test('images, srcsets, stylesheets, @imports, fonts and style attributes are inlined', async (t) => {
  const png = await redPng();
  const s = await countingServer({
    '/a.png': ['image/png', png],
    '/b.png': ['application/octet-stream', png],
    '/css/site.css': [
      'text/css',
      'h1 { background: url("../c.png") } @font-face { font-family: F; src: url(f.woff2) }',
    ],
    '/c.png': ['image/png', png],
    '/css/f.woff2': ['font/woff2', 'wOF2fake'],
    '/i.css': ['text/css', 'p { color: red }'],
  });
  t.teardown(() => s.close());
  const u = s.url;
  const html = `<html><head><link rel="stylesheet" href="${u}/css/site.css"><style>@import "${u}/i.css";
    .x { background-image: url('${u}/a.png') } /* url(${u}/commented.png) */</style></head>
    <body><img srcset="${u}/b.png 2x, ${u}/big.png 3x" src="${u}/a.png"><div style="background: url(&quot;${u}/a.png&quot;)">x</div>
    <!-- <img src="${u}/in-comment.png"> --><script>var s = "<img src='${u}/in-script.png'>";</script>
    <img src="relative.png"><img src="data:image/png;base64,AAAA"></body></html>`;
  const inlined = await inlineAssets(html, LOCAL);
  t.deepEqual(inlined.failures, []);
  t.false(/\/(a|b|i)\.(png|css)/.test(inlined.html), 'no remote reference is left');
  t.true(inlined.html.includes('<img src="relative.png">'), 'relative URLs are left for the page to refuse');
  t.true(inlined.html.includes(`<script>var s = "<img src='${u}/in-script.png'>";</script>`));
  t.regex(inlined.html, /srcset="data:image\/png;base64,[^"]+ 2x"/);
  t.regex(inlined.html, /style="background: url\(data:image\/png;base64,[A-Za-z0-9+/=]+\)"/);
  const sheet = dataUrls(inlined.html).find((url) => url.startsWith('data:text/css') && decoded(url).includes('h1'))!;
  t.regex(decoded(sheet), /h1 \{ background: url\(data:image\/png;base64,/);
  t.regex(decoded(sheet), /src: url\(data:font\/woff2;base64,/);
  t.regex(inlined.html, /@import url\(data:text\/css;charset=utf-8;base64,/);
  t.is(s.hits.get('/a.png'), 1, 'a URL named three times is fetched once');
  t.is(s.hits.get('/big.png'), undefined, 'only the first srcset candidate');
  t.is(s.hits.get('/in-comment.png'), undefined);
  t.is(s.hits.get('/in-script.png'), undefined);
  t.is(inlined.fetched, 6);
});

test('stylesheets past the fetch slots, each naming images, are all inlined', async (t) => {
  const png = await redPng();
  const files: Record<string, [string, string | Buffer]> = {};
  for (let i = 0; i < 6; i++) {
    files[`/s${i}.css`] = ['text/css', `.c${i} { background: url(i${i}.png) }`];
    files[`/i${i}.png`] = ['image/png', png];
  }
  const s = await countingServer(files);
  t.teardown(() => s.close());
  const links = [0, 1, 2, 3, 4, 5].map((i) => `<link rel="stylesheet" href="${s.url}/s${i}.css">`).join('');
  const inlined = await inlineAssets(`<html><head>${links}</head></html>`, { ...LOCAL, concurrency: 2 });
  t.deepEqual(inlined.failures, []);
  t.is(inlined.fetched, 12);
  const sheets = dataUrls(inlined.html).map(decoded);
  t.is(sheets.filter((css) => /url\(data:image\/png;base64,/.test(css)).length, 6);
});

test('a private address is refused without the allowance, and the failure names it', async (t) => {
  const s = await countingServer({ '/x.png': ['image/png', await redPng()] });
  t.teardown(() => s.close());
  const inlined = await inlineAssets(`<img src="${s.url}/x.png">`, { allowedNetworks: [] });
  t.is(inlined.failures.length, 1);
  t.like(inlined.failures[0], { url: `${s.url}/x.png`, kind: 'image', reason: 'private_network' });
  t.is(
    describeAssetFailure(inlined.failures[0]),
    `an image the artwork names could not be fetched: ${s.url}/x.png (refused: private network)`,
  );
  t.is(s.connections(), 0);
  t.is(inlined.html, `<img src="${s.url}/x.png">`);
});

test('the assets of one artwork are capped in total', async (t) => {
  const big = Buffer.alloc(3 * 1024 * 1024, 1);
  const s = await countingServer({ '/1.bin': ['image/png', big], '/2.bin': ['image/png', big] });
  t.teardown(() => s.close());
  const html = `<img src="${s.url}/1.bin"><img src="${s.url}/2.bin">`;
  const inlined = await inlineAssets(html, { ...LOCAL, maxTotalBytes: 5 * 1024 * 1024, concurrency: 1 });
  t.is(inlined.failures.length, 1);
  t.like(inlined.failures[0], { url: `${s.url}/2.bin`, reason: 'too_large' });
  t.true((await inlineAssets(html, { ...LOCAL, maxTotalBytes: 7 * 1024 * 1024 })).failures.length === 0);
});

test('a server that never answers fails within the fetch time limit', async (t) => {
  const s = await countingServer({});
  t.teardown(() => s.close());
  const inlined = await inlineAssets(`<link rel=stylesheet href="${s.url}/hang">`, { ...LOCAL, fetchTimeoutMs: 300 });
  t.like(inlined.failures[0], { kind: 'stylesheet', reason: 'timeout' });
});

test('an error status is a failure', async (t) => {
  const s = await countingServer({});
  t.teardown(() => s.close());
  const inlined = await inlineAssets(`<body background="${s.url}/missing.png">`, LOCAL);
  t.like(inlined.failures[0], { reason: 'http_status', kind: 'image' });
});

test('the scanner survives odd markup', (t) => {
  const odd = `<img src='a.png' alt="unclosed><p>${'<a '.repeat(50_000)}${'"'.repeat(10_000)}<style>${'url('.repeat(50_000)}`;
  t.notThrows(() => scanHtml(odd));
  t.notThrows(() => scanCss('url('.repeat(100_000) + '/*'.repeat(10_000)));
  const slots = scanHtml(`<IMG SRC=http://h/a.png><img src = "http://h/b&amp;c.png" srcset="http://h/d.png">`);
  t.deepEqual(
    slots.map((s) => (s.type === 'url' ? s.url : '')),
    ['http://h/a.png', 'http://h/b&c.png', 'http://h/d.png'],
  );
});

test('an entity named like an Object member is left as written', (t) => {
  const slots = scanHtml('<img src="http://h/&constructor;&toString;&amp;.png">');
  t.deepEqual(
    slots.map((s) => (s.type === 'url' ? s.url : '')),
    ['http://h/&constructor;&toString;&.png'],
  );
});
