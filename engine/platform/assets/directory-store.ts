// Assets in a directory: written to a temporary name and renamed, so a reader never sees half a file
// and a render retried after a crash simply writes the same file again. A process killed mid-write
// leaves its `.part` file behind: `sweep` removes those old enough that no live writer can hold them.
import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  contentTypeOf,
  hashingCounter,
  type AssetStore,
  type ByteRange,
  type PutResult,
  type StoredAsset,
  type StreamedAsset,
} from './store';
import { codeOf } from '../../base/thrown';

const PART = /\.[0-9a-f]{12}\.part$/;

/**
 * Several processes may share the folder, and a `.part` file is another's write in progress until it
 * is renamed: one write lasts seconds (a render's lease bounds it), so one untouched this long is a
 * crashed writer's.
 */
export const STALE_PART_MS = 15 * 60_000;

export class DirectoryStore implements AssetStore {
  readonly label: string;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.label = this.root;
  }

  private fileOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async put(key: string, bytes: Uint8Array, _contentType: string): Promise<void> {
    const file = this.fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.part`;
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, file);
  }

  async putStream(key: string, source: Readable, _contentType: string): Promise<PutResult> {
    const file = this.fileOf(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${randomBytes(6).toString('hex')}.part`;
    const counter = hashingCounter();
    try {
      await pipeline(source, counter.transform, createWriteStream(temporary));
      await fs.rename(temporary, file);
    } catch (error) {
      await fs.rm(temporary, { force: true }); // a failed copy leaves nothing for the sweep to find
      throw error;
    }
    return counter.result();
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await fs.stat(this.fileOf(key))).size;
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<StreamedAsset | undefined> {
    const file = this.fileOf(key);
    // opened before it is handed out, so a missing file is undefined here and not an error mid-answer
    let handle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      if (!range) return { stream: handle.createReadStream(), contentType: contentTypeOf(key), size };
      const end = Math.min(range.end, size - 1);
      return {
        stream: handle.createReadStream({ start: range.start, end }),
        contentType: contentTypeOf(key),
        size: Math.max(0, end - range.start + 1),
      };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async get(key: string): Promise<StoredAsset | undefined> {
    try {
      return { bytes: await fs.readFile(this.fileOf(key)), contentType: contentTypeOf(key) };
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.rm(this.fileOf(key), { force: true })));
  }

  /** Removes `.part` files last written more than STALE_PART_MS ago; how many it removed. */
  async sweep(now = Date.now()): Promise<number> {
    let removed = 0;
    const folders = [this.root];
    for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
      let entries;
      try {
        entries = await fs.opendir(folder);
      } catch (error) {
        if (codeOf(error) === 'ENOENT') continue; // not made yet, or removed meanwhile
        throw error;
      }
      for await (const entry of entries) {
        const file = path.join(folder, entry.name);
        if (entry.isDirectory()) folders.push(file);
        else if (entry.isFile() && PART.test(entry.name)) removed += await removeIfStale(file, now);
      }
    }
    return removed;
  }
}

async function removeIfStale(file: string, now: number): Promise<number> {
  try {
    if (now - (await fs.stat(file)).mtimeMs < STALE_PART_MS) return 0;
    await fs.rm(file);
    return 1;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return 0; // renamed or swept by another process
    throw error;
  }
}
