// Unpacks the entries of a zip that a reader needs into a temporary folder, streaming (fflate), so a
// county file of any size is never held in memory; the shapefile reader then streams those files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommandRefused } from '../../base/errors';

export interface Unzipped {
  dir: string;
  /** the unpacked files by their lower-case extension (".shp", ".dbf") */
  files: Map<string, string>;
  remove(): Promise<void>;
}

const ZIP_MAGIC = 0x04034b50;
const END_OF_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
/** The end record (22 bytes) and its comment (at most 65,535) close every whole zip. */
const TAIL = 22 + 65_535;

/** Whether the file starts as a zip and ends with a zip's end record (a download cut short does not). */
function zipShape(file: string): { zip: boolean; whole: boolean } {
  const size = fs.statSync(file).size;
  const fd = fs.openSync(file, 'r');
  try {
    const head = Buffer.alloc(4);
    fs.readSync(fd, head, 0, 4, 0);
    if (size < 4 || head.readUInt32LE(0) !== ZIP_MAGIC) return { zip: false, whole: false };
    const length = Math.min(size, TAIL);
    const tail = Buffer.alloc(length);
    fs.readSync(fd, tail, 0, length, size - length);
    return { zip: true, whole: tail.lastIndexOf(END_OF_DIRECTORY) >= 0 };
  } finally {
    fs.closeSync(fd);
  }
}

/** The entries whose extension is in `wanted`, unpacked; refuses a file that is no zip or a broken one. */
export async function unzipEntries(file: string, wanted: readonly string[]): Promise<Unzipped> {
  const name = path.basename(file);
  const shape = zipShape(file);
  if (!shape.zip) throw new CommandRefused(`${name} is not a zip file.`);
  if (!shape.whole) throw new CommandRefused(`${name} is a broken zip file (it ends before its directory).`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'printpost-streets-'));
  const files = new Map<string, string>();
  // loaded on the first import only: serving engines never unzip
  const { Unzip, UnzipInflate } = await import('fflate');
  const remove = () => fs.promises.rm(dir, { recursive: true, force: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const unzip = new Unzip();
      unzip.register(UnzipInflate);
      let failed = false;
      // entries still being written: a zip cut short ends with one of them open
      const open = new Map<string, number>();
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        reject(
          new CommandRefused(
            `${name} is a broken zip file (${error instanceof Error ? error.message : String(error)}).`,
          ),
        );
      };
      unzip.onfile = (entry) => {
        const ext = path.extname(entry.name).toLowerCase();
        if (!wanted.includes(ext) || files.has(ext)) return;
        const target = path.join(dir, `entry${ext}`);
        const out = fs.openSync(target, 'w');
        files.set(ext, target);
        open.set(ext, out);
        entry.ondata = (error, data, final) => {
          if (error) return fail(error);
          fs.writeSync(out, data);
          if (final) {
            fs.closeSync(out);
            open.delete(ext);
          }
        };
        entry.start();
      };
      const input = fs.createReadStream(file);
      input.on('data', (chunk) => {
        try {
          unzip.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
        } catch (error) {
          fail(error);
          input.destroy();
        }
      });
      input.on('end', () => {
        try {
          unzip.push(new Uint8Array(0), true);
          for (const fd of open.values()) fs.closeSync(fd);
          if (open.size > 0) fail(new Error('it ends inside an entry'));
          if (!failed) resolve();
        } catch (error) {
          fail(error);
        }
      });
      input.on('error', fail);
    });
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, files, remove };
}
