// The committed Zapier app definition (nodes/zapier/app-definition.json) is the one the catalog gives and
// the one the built app serializes to, as the n8n description files are checked in catalog.test.ts.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { packCatalog } from '../../nodes/common/catalog-data';
import { coverage } from '../../nodes/zapier/actions';
import { buildApp } from '../../nodes/zapier/app';
import { DEFINITION_FILE, serializedApp, writeDefinition } from '../../scripts/zapier-definition';
import { builtPacks } from './build-once';

type Definition = Record<'triggers' | 'searches' | 'creates', Record<string, unknown>> & { version: string };

const committed = (): Definition => JSON.parse(readFileSync(DEFINITION_FILE, 'utf8'));

test('the committed definition is the one the catalog generates (npm run build:n8n writes it)', async (t) => {
  t.false(await writeDefinition(true), `${DEFINITION_FILE} differs: run npm run build:n8n and commit it`);
});

test('it holds every operation the app covers, and the built app serializes to it', async (t) => {
  const definition = committed();
  for (const { zapier } of coverage(packCatalog)) {
    if (!zapier) continue;
    const [kind, key] = zapier.split('.') as ['triggers' | 'searches' | 'creates', string];
    t.truthy(definition[kind][key], zapier);
  }
  const { zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const built = require(zapierDir) as object;
  t.deepEqual(serializedApp(built), definition);
});

test('the comparison is live: an app without one resource does not match it', (t) => {
  const fewer = buildApp(
    packCatalog.filter((r) => r.name !== 'addresses'),
    committed().version,
  );
  t.notDeepEqual(serializedApp({ ...fewer, version: committed().version }), committed());
});
