// `npm run casts`: the type assertions (`x as T`, `<T>x`) in shipped code, by folder, `as const` not
// counted. test/house/casts.test.ts holds the total under a ceiling so it only goes down.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export const SHIPPED = ['engine', 'nodes', 'triggers', 'credentials', 'migrations'];
const ROOT = path.resolve(__dirname, '..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** Each assertion in a file, as `line: text`. */
export function castsIn(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    const isAs = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
    if (isAs && !(ts.isTypeReferenceNode(node.type) && node.type.getText(source) === 'const')) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push(`${line + 1}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 100)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Casts per shipped file, relative paths. */
export function countCasts(): Map<string, string[]> {
  const byFile = new Map<string, string[]>();
  for (const top of SHIPPED) {
    for (const file of walk(path.join(ROOT, top))) {
      const casts = castsIn(file);
      if (casts.length > 0) byFile.set(path.relative(ROOT, file).split(path.sep).join('/'), casts);
    }
  }
  return byFile;
}

if (require.main === module) {
  const byFile = countCasts();
  const byFolder = new Map<string, number>();
  for (const [file, casts] of byFile) {
    const folder = file
      .split('/')
      .slice(0, file.startsWith('engine/') ? 2 : 1)
      .join('/');
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + casts.length);
  }
  const verbose = process.argv.includes('--files');
  if (verbose)
    for (const [file, casts] of [...byFile].sort((a, b) => b[1].length - a[1].length))
      console.log(`${casts.length}\t${file}`);
  for (const [folder, n] of [...byFolder].sort((a, b) => b[1] - a[1])) console.log(`${n}\t${folder}`);
  console.log(`${[...byFile.values()].reduce((n, c) => n + c.length, 0)}\ttotal`);
}
