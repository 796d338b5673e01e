// Multipart uploads stream to disk under their limits. No catalog operation takes files yet (the mail
// surface will), so the body parser is served here by a bare HTTP server on 127.0.0.1.
import test from 'ava';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { parseBody } from '../../engine/http/body';
import { discardUploads } from '../../engine/http/multipart';
import { ApiError } from '../../engine/base/errors';

const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-uploads-test-'));
let seen:
  | { fields: Record<string, unknown>; files: { field: string; path: string; size: number; bytes: string }[] }
  | undefined;

const server = http.createServer((req, res) => {
  parseBody(req, { maxBytes: 1024, maxFileBytes: 2048, fileFields: ['front', 'back'], uploadDir }).then(
    async (parsed) => {
      seen = {
        fields: parsed.fields,
        files: parsed.files.map((f) => ({
          field: f.field,
          path: f.path,
          size: f.size,
          bytes: fs.readFileSync(f.path, 'latin1'),
        })),
      };
      await discardUploads(parsed.files);
      res.end(JSON.stringify({ ok: true }));
    },
    (error: unknown) => {
      res.statusCode = error instanceof ApiError ? error.status : 500;
      res.end(JSON.stringify(error instanceof ApiError ? error.toBody() : { crash: String(error) }));
    },
  );
});

test.before(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
test.after.always(() => {
  server.closeAllConnections();
  server.close();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

const part = (name: string, value: string, filename?: string) =>
  `--b\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n${filename ? 'Content-Type: application/pdf\r\n' : ''}\r\n${value}\r\n`;

async function post(body: string) {
  const { port } = server.address() as AddressInfo;
  const reply = await fetch(`http://127.0.0.1:${port}/`, {
    method: 'POST',
    headers: { 'content-type': 'multipart/form-data; boundary=b' },
    body,
  });
  return { status: reply.status, body: (await reply.json()) as Record<string, { code?: string; message?: string }> };
}

test.serial(
  'a file part streams to a file of its own beside the fields; the request can remove it after',
  async (t) => {
    seen = undefined;
    const pdf = '%PDF-1.4\n' + 'x'.repeat(1500) + '\n%%EOF';
    const reply = await post(part('to[name]', 'Ada') + part('front', pdf, 'front.pdf') + '--b--\r\n');
    t.is(reply.status, 200, JSON.stringify(reply.body));
    t.deepEqual(seen!.fields, { to: { name: 'Ada' } });
    t.is(seen!.files.length, 1);
    t.like(seen!.files[0], { field: 'front', size: pdf.length, bytes: pdf });
    t.true(seen!.files[0].path.startsWith(uploadDir));
    await new Promise((resolve) => setTimeout(resolve, 50));
    t.false(fs.existsSync(seen!.files[0].path), 'discarded after the request');
  },
);

test.serial('a file past its limit is file_size_exceeds_limit and leaves nothing on disk', async (t) => {
  const reply = await post(part('front', 'y'.repeat(5000), 'big.pdf') + '--b--\r\n');
  t.is(reply.status, 422);
  t.is(reply.body.error.code, 'file_size_exceeds_limit');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(fs.readdirSync(uploadDir), []);
});

test.serial('a file to an undeclared field, a third file, or fields past the body limit are refused', async (t) => {
  t.is(
    (await post(part('other', 'z', 'z.pdf') + '--b--\r\n')).body.error.message,
    'other is not a file field: only front, back may be uploaded',
  );
  const three = part('front', 'a', 'a.pdf') + part('back', 'b', 'b.pdf') + part('front', 'c', 'c.pdf') + '--b--\r\n';
  t.is((await post(three)).status, 422);
  t.is((await post(part('description', 'd'.repeat(2000)) + '--b--\r\n')).status, 413);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.deepEqual(fs.readdirSync(uploadDir), []);
});
