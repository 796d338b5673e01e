// `/assets` answers files as streams: a large file is served whole with its length, and a client that
// goes away mid-download is not logged as an engine error (Koa reports the early end of its stream).
import test from 'ava';
import fs from 'node:fs';
import path from 'node:path';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { postcard } from '../helpers/mail';

let engine: TestEngine;
test.before(async () => {
  engine = await startEngine();
});
test.after.always(() => engine?.close());

/** A signed link of a piece, with a file of `size` bytes put where its PDF goes. */
async function linkToFile(size: number): Promise<string> {
  const created = (await client(engine.url, engine.keys.test)('POST', '/v1/postcards', { json: postcard() })).body as {
    id: string;
    url: string;
  };
  const file = path.join(engine.assets, 'postcards', `${created.id}.pdf`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, Buffer.alloc(size, 7));
  return created.url;
}

test.serial('a large file is streamed whole, and a client leaving mid-download logs no error', async (t) => {
  const size = 24 * 1_048_576;
  const whole = await fetch(await linkToFile(size));
  t.is(whole.status, 200);
  t.is(whole.headers.get('content-length'), String(size));
  t.is((await whole.arrayBuffer()).byteLength, size);

  const logged: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => {
    logged.push(args.map(String).join(' '));
  };
  try {
    const controller = new AbortController();
    const partial = await fetch(await linkToFile(size), { signal: controller.signal });
    const reader = partial.body!.getReader();
    t.false((await reader.read()).done, 'the first bytes arrive before the whole file is read');
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 300)); // the engine sees the socket close
  } finally {
    console.error = original;
  }
  t.deepEqual(
    logged.filter((line) => /premature close/i.test(line)),
    [],
  );
});
