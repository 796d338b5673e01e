// The built Zapier app, loaded from its folder (zapier-platform-core from the root node_modules),
// validated with the platform's schema and driven with createAppTester against a real engine.
import test from 'ava';
import { join } from 'node:path';
import { startEngine, type TestEngine } from '../helpers/engine';
import { builtPacks } from './build-once';
import { packCatalog } from '../../nodes/common/catalog-data';
import { exampleInputs, exampleOperations } from './examples';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const zapier = require('zapier-platform-core') as typeof import('zapier-platform-core');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateApp } = require('zapier-platform-core/src/tools/schema') as { validateApp(app: unknown): unknown[] };

type AnyApp = Record<string, any>;
let engine: TestEngine;
let app: AnyApp;
let appTester: ReturnType<typeof zapier.createAppTester>;
const auth = (key = engine.keys.test) => ({ authData: { api_key: key, base_url: engine.url } });

test.before(async () => {
  engine = await startEngine({ settings: { rate_limit_per_5s: 100000 } });
  const { zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  app = require(join(zapierDir, require(join(zapierDir, 'package.json')).main));
  appTester = zapier.createAppTester(app);
});

test.after.always(async () => {
  await engine?.close();
});

test('validateApp returns no errors', (t) => {
  const errors = validateApp(app);
  t.deepEqual(errors, [], JSON.stringify(errors, null, 2));
});

test('the package: zapier-platform-core 19.1.0 its one dependency, main exports the app', async (t) => {
  const { zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require(join(zapierDir, 'package.json'));
  t.deepEqual(pkg.dependencies, { 'zapier-platform-core': '19.1.0' });
  t.is(app.platformVersion, '19.1.0');
  t.truthy(app.creates.addresses_create);
  t.truthy(app.searches.addresses_find);
  t.truthy(app.searchOrCreates.addresses_find);
  t.true(app.triggers.addresses_list.display.hidden);
});

test('authentication test passes with a secret or a publishable key; the label shows the mode', async (t) => {
  for (const key of [engine.keys.test, engine.keys.testPub]) {
    const result = await appTester(app.authentication.test, auth(key));
    t.is((result as AnyApp).object, 'us_autocompletion');
  }
  t.regex(String(await appTester(app.authentication.connectionLabel, auth(engine.keys.testPub))), /^Test mode/);
  t.regex(String(await appTester(app.authentication.connectionLabel, auth())), /^Test mode/);
  t.regex(String(await appTester(app.authentication.connectionLabel, auth(engine.keys.live))), /^Live mode/);
});

test('a bad key fails with an authentication error', async (t) => {
  const error = await t.throwsAsync(appTester(app.authentication.test, auth('test_nope')));
  t.regex(String(error?.message), /AuthenticationError|Authentication failed/);
  t.regex(String(error?.message), /401/);
});

test('create an address from flat input fields (metadata as a dict)', async (t) => {
  const created = (await appTester(app.creates.addresses_create.operation.perform, {
    ...auth(),
    inputData: {
      name: 'Harry Zhang',
      address_line1: '210 King St',
      address_city: 'San Francisco',
      address_state: 'CA',
      address_zip: '94107',
      metadata: { crm: 'z-1' },
      description: '',
    },
  })) as AnyApp;
  t.regex(created.id, /^adr_/);
  t.is(created.address_line1, '210 KING ST');
  t.deepEqual(created.metadata, { crm: 'z-1' });
});

test('a 422 surfaces the spec message', async (t) => {
  const error = await t.throwsAsync(
    appTester(app.creates.addresses_create.operation.perform, {
      ...auth(),
      inputData: { address_line1: '1 Main St', address_city: 'Boston', address_state: 'MA', address_zip: '02110' },
    }),
  );
  t.regex(String(error?.message), /name or company/);
});

test('delete action yields {id, deleted: true}', async (t) => {
  const created = (await appTester(app.creates.addresses_create.operation.perform, {
    ...auth(),
    inputData: {
      name: 'Del',
      address_line1: '1 Main St',
      address_city: 'Boston',
      address_state: 'MA',
      address_zip: '02110',
    },
  })) as AnyApp;
  const deleted = await appTester(app.creates.addresses_delete.operation.perform, {
    ...auth(),
    inputData: { id: created.id },
  });
  t.deepEqual(deleted, { id: created.id, deleted: true });
});

test('find by id, find by metadata, and nothing found', async (t) => {
  const tag = `zap-${Date.now()}`;
  const created = (await appTester(app.creates.addresses_create.operation.perform, {
    ...auth(),
    inputData: {
      company: 'Acme',
      address_line1: '1 Main St',
      address_city: 'Boston',
      address_state: 'MA',
      address_zip: '02110',
      metadata: { tag },
    },
  })) as AnyApp;
  const byId = (await appTester(app.searches.addresses_find.operation.perform, {
    ...auth(),
    inputData: { id: created.id },
  })) as AnyApp[];
  t.is(byId[0].id, created.id);
  const byMeta = (await appTester(app.searches.addresses_find.operation.perform, {
    ...auth(),
    inputData: { metadata: { tag } },
  })) as AnyApp[];
  t.deepEqual(
    byMeta.map((a) => a.id),
    [created.id],
  );
  t.deepEqual(
    await appTester(app.searches.addresses_find.operation.perform, {
      ...auth(),
      inputData: { id: 'adr_doesnotexist0000' },
    }),
    [],
  );
  t.deepEqual(
    await appTester(app.searches.addresses_find.operation.perform, {
      ...auth(),
      inputData: { metadata: { tag: 'nothing-has-this' } },
    }),
    [],
  );
});

test('the hidden list trigger fills dropdowns: every object carries a label', async (t) => {
  const items = (await appTester(app.triggers.addresses_list.operation.perform, {
    ...auth(),
    meta: { page: 0 },
  })) as AnyApp[];
  t.true(items.length > 0);
  t.true(items.every((i) => typeof i.label === 'string' && i.id.startsWith('adr_')));
});

test('dropdown pages past the first follow next_url', async (t) => {
  const first = (await appTester(app.triggers.addresses_list.operation.perform, {
    ...auth(),
    meta: { page: 0 },
  })) as AnyApp[];
  const second = (await appTester(app.triggers.addresses_list.operation.perform, {
    ...auth(),
    meta: { page: 1 },
  })) as AnyApp[];
  const ids = new Set(first.map((i) => i.id));
  t.true(second.every((i) => !ids.has(i.id)));
  t.deepEqual(await appTester(app.triggers.addresses_list.operation.perform, { ...auth(), meta: { page: 50 } }), []);
});

for (const { resource, operation } of exampleOperations(packCatalog)) {
  test(`${resource.name}.${operation.name} runs from the catalog's examples`, async (t) => {
    const { zapier: inputData } = exampleInputs(operation, packCatalog);
    const key = operation.publishable ? engine.keys.testPub : engine.keys.test;
    const create = Object.values(app.creates as Record<string, AnyApp>).find(
      (c) => c.key === (operation.name === 'create' ? `${resource.name}_create` : `${resource.name}_${operation.name}`),
    );
    t.truthy(create);
    const out = (await appTester(create!.operation.perform, { ...auth(key), inputData })) as AnyApp;
    if (operation.responseSchema)
      t.deepEqual(Object.keys(out).sort(), Object.keys(operation.responseSchema.properties ?? {}).sort());
    else if (typeof resource.sample.object === 'string') t.is(out.object, resource.sample.object);
    else t.truthy(out);
  });
}
