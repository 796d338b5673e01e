// One door into the store (docs/ARCHITECTURE.md, Storage): outside engine/store no file holds or
// passes a Knex handle. Every engine file outside the store is parsed with the TypeScript compiler,
// and none may import 'knex', name the `Knex` type, import the store's connection (its `Database`
// carries the handle) or read a `.knex` property. The store hands out a `Store` of named functions.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return walk(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

function moduleNamed(node: ts.Node): string | undefined {
  if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
    return ts.isStringLiteral(node.moduleSpecifier) ? node.moduleSpecifier.text : undefined;
  if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
    const expression = node.moduleReference.expression;
    return ts.isStringLiteral(expression) ? expression.text : undefined;
  }
  if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node))) {
    const [first] = node.arguments;
    return first && ts.isStringLiteralLike(first) ? first.text : undefined;
  }
  return undefined;
}

const isRequire = (call: ts.CallExpression) => ts.isIdentifier(call.expression) && call.expression.text === 'require';

/** What in `source` reaches past the store's door, as `line: what`. */
function handlesIn(name: string, source: string): string[] {
  const file = ts.createSourceFile(name, source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${what}`);
  const visit = (node: ts.Node): void => {
    const from = moduleNamed(node);
    if (from === 'knex' || from?.startsWith('knex/')) at(node, "imports 'knex'");
    else if (from !== undefined && /(^|\/)store\/connection$/.test(from)) at(node, 'imports the store connection');
    if (ts.isIdentifier(node) && node.text === 'Knex') at(node, 'names the Knex type');
    if (ts.isPropertyAccessExpression(node) && node.name.text === 'knex') at(node, 'reads a .knex handle');
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Every file of the engine outside engine/store that reaches past the door. */
function pastTheDoor(): string[] {
  return walk(path.join(ROOT, 'engine'))
    .map(rel)
    .filter((name) => !name.startsWith('engine/store/'))
    .flatMap((name) => handlesIn(name, readFileSync(path.join(ROOT, name), 'utf8')).map((hit) => `${name}:${hit}`));
}

test('outside engine/store nothing holds or passes a Knex handle', (t) => {
  t.deepEqual(pastTheDoor(), []);
});

test('the scan sees a handle where there is one', (t) => {
  const samples = [
    "import type { Knex } from 'knex';",
    "import knex from 'knex';",
    "const k = require('knex');",
    "export { default } from 'knex';",
    "import { connect, type Database } from '../store/connection';",
    "import type { Database } from '../../store/connection';",
    'function f(trx: Knex.Transaction) {}',
    'await readBlob(context.knex, scope, id);',
    'const handle = services.db.knex;',
  ];
  for (const sample of samples) t.true(handlesIn('sample.ts', sample).length > 0, sample);
  const clean = [
    "import { openStore, type Store } from '../store/store';",
    'await services.store.blobs.read(scope, id);',
    "const knexLike = 'knex'; // a string and a comment: knex, Knex",
  ];
  for (const sample of clean) t.deepEqual(handlesIn('sample.ts', sample), [], sample);
});
