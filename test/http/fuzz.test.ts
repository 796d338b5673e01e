// Property-based fuzzing over every catalog operation, raw malformed HTTP and hostile artwork uploads
// (test/fuzz), on both databases: no 5xx, the spec's error body on every 4xx, `GET /health` answering 200
// between any two requests, the engine alive afterwards; and after the run no descriptor nor upload file
// left, the engine's memory under RSS_CEILING_BYTES. `npm run fuzz -- --minutes N` runs the same property
// for long against an engine in its own process and measures /health's latency; FUZZ_SEED replays a
// failure reported here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { databaseSuite } from '../helpers/suite';
import { fuzz } from '../fuzz/property';
import { closeAgent } from '../fuzz/send';
import { HOSTILE_FILES, bytesOf } from '../fuzz/hostile-files';
import {
  DESCRIPTOR_SLACK,
  RSS_CEILING_BYTES,
  mb,
  openDescriptors,
  peakRssBytes,
  uploadFilesLeft,
} from '../fuzz/vitals';

const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-fuzz-uploads-'));
// serial: the descriptor counts are this process's, which both databases' engines share
const { serial } = databaseSuite({ env: { UPLOAD_DIR: uploadDir }, settings: { rate_limit_per_5s: 1_000_000 } });

test.before(() => Promise.all(HOSTILE_FILES.map(bytesOf)));
test.after.always(() => {
  closeAgent();
  fs.rmSync(uploadDir, { recursive: true, force: true });
});

/** Closes the fuzz client's kept-alive sockets (both of their ends are in this process) and lets the engine see it. */
async function quiet(): Promise<void> {
  closeAgent();
  await new Promise((resolve) => setTimeout(resolve, 300));
}

serial(
  '400 generated requests, 40 raw ones, every hostile file on every upload operation and 40 hostile uploads: ' +
    'no 5xx, every error in the spec body, /health answering, nothing left behind',
  async (t, { engine }) => {
    const seed = Number(process.env.FUZZ_SEED ?? 20261123);
    const auth = `Basic ${Buffer.from(`${engine.keys.test}:`).toString('base64')}`;
    // the engine runs in this process (test/helpers/engine.ts): its descriptors and memory are ours
    const pid = process.pid;
    await quiet();
    const before = openDescriptors(pid);
    await fuzz({ url: engine.url, auth }, { runs: 400, seed });
    t.is(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    await quiet();
    const after = openDescriptors(pid);
    t.true(after <= before + DESCRIPTOR_SLACK, `descriptors ${before} before the run, ${after} after`);
    t.deepEqual(uploadFilesLeft(uploadDir), [], 'no upload file left');
    const peak = peakRssBytes(pid);
    t.true(peak < RSS_CEILING_BYTES, `peak RSS ${mb(peak)}, ceiling ${mb(RSS_CEILING_BYTES)}`);
  },
);
