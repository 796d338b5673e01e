// Hostile multipart bodies sent byte for byte to a real engine: each is answered with a 4xx in the spec's
// body, and leaves no descriptor open and no file in the upload folder. The engine runs in this process,
// so its descriptors are /proc/self/fd.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { databaseSuite } from '../helpers/suite';
import type { TestEngine } from '../helpers/engine';
import { TO } from '../helpers/mail';

const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-hostile-uploads-'));
const { serial } = databaseSuite({ env: { UPLOAD_DIR: uploadDir }, settings: { rate_limit_per_5s: 100000 } });

interface Answer {
  status: number;
  body: { error?: { message?: string; code?: string; status_code?: number } };
}

/** Sends exact bytes (no client library reshapes them), on a connection of its own that is closed after. */
function send(engine: TestEngine, body: Buffer, boundary = 'B'): Promise<Answer> {
  const url = new URL(`${engine.url}/v1/postcards`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        timeout: 10_000,
        headers: {
          authorization: `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': body.length,
          connection: 'close',
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Answer['body'] });
          } catch {
            resolve({ status: res.statusCode ?? 0, body: { error: { message: `not JSON: ${text}` } } });
          }
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(body);
  });
}

const field = (name: string, value: string) =>
  `--B\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (name: string, filename: string, bytes: string) =>
  `--B\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n${bytes}\r\n`;
const postcardFields = () =>
  Object.entries(TO)
    .map(([k, v]) => field(`to[${k}]`, v))
    .join('') + field('use_type', 'marketing');

const openDescriptors = () => fs.readdirSync('/proc/self/fd').length;
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

function spec4xx(t: { true(v: boolean, m?: string): void; is(a: unknown, b: unknown, m?: string): void }, a: Answer) {
  const shown = JSON.stringify(a);
  t.true(a.status >= 400 && a.status < 500, shown);
  t.is(a.body.error?.status_code, a.status, shown);
  t.is(typeof a.body.error?.message, 'string', shown);
  t.is(typeof a.body.error?.code, 'string', shown);
}

const NUL_THEN_CUT = Buffer.from(
  '--B\r\nContent-Disposition: form-data; name="front"; filename="a\0.pdf"\r\n\r\n%PDF-1.7\r\n' +
    '--B\r\nContent-Disposition: form-data; name="back"; filename="b.pdf"\r\n\r\n%PDF-1.7\nhalf',
  'latin1',
);

serial(
  'a NUL in a filename before a file part cut short: answered, no descriptor nor file left',
  async (t, { engine }) => {
    spec4xx(t, await send(engine, NUL_THEN_CUT)); // warms the engine's lazy descriptors up
    await settle();
    const before = openDescriptors();
    for (let i = 0; i < 20; i++) spec4xx(t, await send(engine, NUL_THEN_CUT));
    await settle();
    t.true(openDescriptors() <= before + 2, `descriptors ${before} -> ${openDescriptors()}`);
    t.deepEqual(fs.readdirSync(uploadDir), []);
  },
);

serial('a NUL in a filename of an otherwise valid postcard is a 4xx, never a 500', async (t, { engine }) => {
  const body = Buffer.from(
    postcardFields() +
      field('back', '<p>Back</p>') +
      filePart('front', 'a\0.pdf', '%PDF-1.7\n') +
      field('front', '<p>Front</p>') +
      '--B--\r\n',
    'latin1',
  );
  spec4xx(t, await send(engine, body));
  await settle();
  t.deepEqual(fs.readdirSync(uploadDir), []);
});

serial("a body cut inside a file part is the client's 422, as every malformed body is", async (t, { engine }) => {
  const body = Buffer.from(
    postcardFields() +
      field('back', '<p>Back</p>') +
      '--B\r\nContent-Disposition: form-data; name="front"; filename="f.pdf"\r\n\r\n%PDF-1.7\nhal',
    'latin1',
  );
  const answer = await send(engine, body);
  spec4xx(t, answer);
  t.is(answer.status, 422);
  await settle();
  t.deepEqual(fs.readdirSync(uploadDir), []);
});

// Each of these parts is refused before anything reads its bytes, and the body then ends inside it: the
// part's stream errors with nobody piping it. An error escaping the engine fails this file (ava reports
// the uncaught exception), as it would end a process without `printpost serve`'s last line of defence.
for (const [what, name] of [
  ['without a name', ''],
  ['named for a field that takes no file', 'to'],
  ['after a file part refused for its name', 'metadata'],
] as const) {
  serial(`a file part ${what}, cut inside its bytes: a 422, nothing escapes`, async (t, { engine }) => {
    const earlier = name === 'metadata' ? filePart('to', 'a.pdf', '%PDF-1.7\n') : '';
    const body = Buffer.from(
      `${postcardFields()}${earlier}--B\r\nContent-Disposition: form-data; name="${name}"; filename="f.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.7\nhal',
      'latin1',
    );
    const answer = await send(engine, body);
    spec4xx(t, answer);
    t.is(answer.status, 422);
    await settle();
    t.deepEqual(fs.readdirSync(uploadDir), []);
  });
}
