// Worker threads of the renderer start from a file of this folder, loadable however the engine runs:
// compiled JavaScript, or TypeScript through tsx's CommonJS hook, which a thread does not inherit
// (neither from bin/printpost's `require('tsx/cjs')` nor, for `require`, from `--import tsx`).
import path from 'node:path';

/** Source for `new Worker(source, { eval: true })` that loads `file` (a path without extension) as this file runs. */
export function threadSource(file: string): string {
  const entry = `${file}${path.extname(__filename)}`;
  const tsx = entry.endsWith('.ts') ? `require(${JSON.stringify(require.resolve('tsx/cjs'))});` : '';
  return `${tsx}require(${JSON.stringify(entry)});`;
}
