// Which Chromium renders artwork: CHROMIUM_PATH when set, else a system Chromium or Chrome, else the
// one `npm ci` brings (@sparticuz/chromium). Never a silent fallback past a CHROMIUM_PATH that is wrong.
import fs from 'node:fs';
import path from 'node:path';
import { bundledChromium } from './bundled';

export type ChromiumSource = 'CHROMIUM_PATH' | 'system' | 'bundled';

export interface ChromiumChoice {
  source: ChromiumSource;
  executablePath: string;
  /** launch flags, without --user-data-dir (the pool gives each launch a fresh one) */
  args: string[];
  /** 'shell' for chrome-headless-shell builds, true (--headless=new) for a full Chrome */
  headless: true | 'shell';
  env?: Record<string, string>;
}

export type Located = { found: true; chromium: ChromiumChoice } | { found: false; reason: string };

export const SYSTEM_CHROMIUMS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
];

/**
 * Flags for every launch. The page has JavaScript off and refuses every non-data: request; the flags
 * keep the browser itself quiet (no background fetches, updates, sync, QUIC), and the dead proxy
 * catches what request interception never sees (preconnects, DNS prefetch): nothing leaves the machine.
 */
export function safeFlags(noSandbox: boolean): string[] {
  return [
    ...(noSandbox ? ['--no-sandbox'] : []),
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-domain-reliability',
    '--no-first-run',
    '--no-default-browser-check',
    '--no-pings',
    '--disable-quic',
    '--disable-dev-shm-usage',
    '--font-render-hinting=none',
    '--proxy-server=127.0.0.1:9',
    '--proxy-bypass-list=<-loopback>',
  ];
}

const runningAsRoot = () => process.getuid?.() === 0;

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

const headlessFor = (file: string): true | 'shell' => (/headless[-_]shell/i.test(path.basename(file)) ? 'shell' : true);

export interface LocateOptions {
  /** CHROMIUM_PATH */
  chromiumPath?: string;
  /** where to look for a system browser (tests pass [] to reach the bundled one) */
  systemPaths?: readonly string[];
}

export async function locateChromium(options: LocateOptions = {}): Promise<Located> {
  const configured = options.chromiumPath;
  if (configured) {
    if (!isExecutable(configured)) {
      return { found: false, reason: `CHROMIUM_PATH=${configured} is not an executable file` };
    }
    const chromium: ChromiumChoice = {
      source: 'CHROMIUM_PATH',
      executablePath: configured,
      args: safeFlags(runningAsRoot()),
      headless: headlessFor(configured),
    };
    return { found: true, chromium };
  }
  const system = (options.systemPaths ?? SYSTEM_CHROMIUMS).find(isExecutable);
  if (system) {
    const chromium: ChromiumChoice = {
      source: 'system',
      executablePath: system,
      args: safeFlags(runningAsRoot()),
      headless: headlessFor(system),
    };
    return { found: true, chromium };
  }
  const bundled = await bundledChromium();
  if ('reason' in bundled) return { found: false, reason: bundled.reason };
  // the bundled build ships no setuid sandbox helper
  const chromium: ChromiumChoice = {
    source: 'bundled',
    executablePath: bundled.executablePath,
    args: safeFlags(true),
    headless: 'shell',
    ...(bundled.env ? { env: bundled.env } : {}),
  };
  return { found: true, chromium };
}
