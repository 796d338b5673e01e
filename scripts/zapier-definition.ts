// The Zapier app's definition, as Zapier's own tools serialize it (zapier-platform-core's prepareApp,
// then serializeApp: what `zapier build` uploads as definition.json, each function written as
// `$func$<arity>$<uses arguments>$`), committed as nodes/zapier/app-definition.json so a reviewer sees every
// trigger, search, create and field the catalog gives the app, and a change to it shows in a diff, as
// the n8n description files do. `npm run build:n8n` writes both; the pack tests regenerate it and fail
// on a difference.
// Usage: node --import tsx scripts/zapier-definition.ts [--check]
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import prettier from 'prettier';
import { buildApp } from '../nodes/zapier/app';
import { packCatalog } from '../nodes/common/catalog-data';

export const DEFINITION_FILE = resolve(__dirname, '../nodes/zapier/app-definition.json');

/** zapier-platform-core's schema tools, which it ships without types. */
interface SchemaTools {
  prepareApp(app: object): object;
  serializeApp(app: object): unknown;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schemaTools: SchemaTools = require('zapier-platform-core/src/tools/schema');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const core: { version: string } = require('zapier-platform-core');
const { version }: { version: string } = JSON.parse(readFileSync(resolve(__dirname, '../package.json'), 'utf8'));

/** An app as Zapier serializes it. */
export const serializedApp = (app: object): unknown => schemaTools.serializeApp(schemaTools.prepareApp(app));

/** The committed file's text for the app built from the catalog (at the package's version, as the build sets it). */
export async function definitionText(): Promise<string> {
  const app = { ...buildApp(packCatalog, core.version), version };
  const options = await prettier.resolveConfig(DEFINITION_FILE);
  return prettier.format(JSON.stringify(serializedApp(app), null, 2), { ...options, parser: 'json' });
}

/** Writes the definition (or, with `check`, only compares it); whether the committed file differed. */
export async function writeDefinition(check = false): Promise<boolean> {
  const text = await definitionText();
  let committed = '';
  try {
    committed = readFileSync(DEFINITION_FILE, 'utf8');
  } catch {
    // not written yet
  }
  if (!check && committed !== text) writeFileSync(DEFINITION_FILE, text);
  return committed !== text;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  writeDefinition(check)
    .then((differed) => {
      console.log(`${DEFINITION_FILE}: ${differed ? (check ? 'differs from the catalog' : 'written') : 'up to date'}`);
      if (check && differed) process.exit(1);
    })
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
