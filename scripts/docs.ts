// `npm run docs`: writes the generated parts of the README (the configuration table) from their sources.
import fs from 'node:fs';
import path from 'node:path';
import { configTable } from '../engine/platform/config';

export const README = path.join(__dirname, '..', 'README.md');
const SECTION = /(<!-- config:start[^>]*-->\n)[\s\S]*?(<!-- config:end -->)/;

/** The README with its configuration section regenerated. */
export function readmeWithConfig(text: string): string {
  if (!SECTION.test(text)) throw new Error('README.md has no config:start/config:end section');
  return text.replace(SECTION, (_all, start: string, end: string) => `${start}${configTable()}\n${end}`);
}

if (require.main === module) {
  fs.writeFileSync(README, readmeWithConfig(fs.readFileSync(README, 'utf8')));
  process.stdout.write('README.md: configuration table regenerated\n');
}
