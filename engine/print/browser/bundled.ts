// The Chromium that `npm ci` brings (@sparticuz/chromium, an optional dependency). The package
// decompresses its binary into os.tmpdir() and reuses whatever it finds there, so another version's
// leftovers, or the half-written binary of a process decompressing at the same moment, break the
// launch. We give it a folder of our own per package version: it decompresses into a fresh staging
// folder, which is then renamed into place, so a folder that exists is complete.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { messageOf } from '../../base/thrown';

export interface BundledChromium {
  executablePath: string;
  folder: string;
  version: string;
  /** set when the system has no fontconfig setup: the fonts the package ships */
  env?: Record<string, string>;
}

function packageVersion(): string | undefined {
  try {
    // the package's exports hide its package.json: walk up from the entry point to it
    for (let dir = path.dirname(require.resolve('@sparticuz/chromium')); dir !== path.dirname(dir);) {
      const file = path.join(dir, 'package.json');
      const manifest = fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string }) : {};
      if (manifest.name === '@sparticuz/chromium') return (manifest as { version: string }).version;
      dir = path.dirname(dir);
    }
  } catch {
    // not installed (it is optional)
  }
  return undefined;
}

/** `os.tmpdir()` reads TMPDIR on each call; the package reads it synchronously before its first await. */
function withTmpdir<T>(dir: string, run: () => T): T {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    return run();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

const FONTS_CONF = (fonts: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${fonts}</dir></fontconfig>\n`;

async function extract(folder: string): Promise<void> {
  const { default: chromium } = await import('@sparticuz/chromium');
  const stage = await fs.promises.mkdtemp(`${folder}.partial-`);
  try {
    await withTmpdir(stage, () => chromium.executablePath());
    await fs.promises.writeFile(path.join(stage, 'fonts.conf'), FONTS_CONF(path.join(folder, 'fonts')));
    await fs.promises.chmod(stage, 0o755); // mkdtemp's 0700 would shut out the machine's other users
    await fs.promises.rename(stage, folder);
  } catch (error) {
    await fs.promises.rm(stage, { recursive: true, force: true });
    // another process finished first: its folder is complete
    if (!fs.existsSync(path.join(folder, 'chromium'))) throw error;
  }
}

let extracted: Promise<BundledChromium> | undefined;

/** Decompresses (once per machine and version) and returns the bundled Chromium, or why it cannot. */
export async function bundledChromium(): Promise<BundledChromium | { reason: string }> {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    return {
      reason: `the bundled Chromium runs on Linux x64/arm64 only (this is ${process.platform} ${process.arch})`,
    };
  }
  const version = packageVersion();
  if (!version) return { reason: 'no system Chromium found and @sparticuz/chromium is not installed' };
  const folder = path.join(os.tmpdir(), `printpost-chromium-${version}`);
  extracted ??= (async () => {
    if (!fs.existsSync(path.join(folder, 'chromium'))) {
      await fs.promises.rm(folder, { recursive: true, force: true }); // emptied by a temp cleaner
      await extract(folder);
    }
    const env = fs.existsSync('/etc/fonts/fonts.conf') ? undefined : { FONTCONFIG_PATH: folder };
    return { executablePath: path.join(folder, 'chromium'), folder, version, env };
  })();
  try {
    return await extracted;
  } catch (error) {
    extracted = undefined;
    return { reason: `the bundled Chromium could not be decompressed: ${messageOf(error)}` };
  }
}
