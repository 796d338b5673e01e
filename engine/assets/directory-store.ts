// Assets in a directory: written to a temporary name and renamed, so a reader never sees half a file
// and a render retried after a crash simply writes the same file again.
import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { assertSafeKey, contentTypeOf, type AssetStore, type StoredAsset } from './store';

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

  async get(key: string): Promise<StoredAsset | undefined> {
    try {
      return { bytes: await fs.readFile(this.fileOf(key)), contentType: contentTypeOf(key) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => fs.rm(this.fileOf(key), { force: true })));
  }
}
