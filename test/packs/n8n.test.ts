// The built n8n package, loaded by n8n-core's package loader and run by n8n's WorkflowExecute
// against a real engine on 127.0.0.1.
import test from 'ava';
import type { IDataObject } from 'n8n-workflow';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';
import { builtPacks } from './build-once';
import { listSearch, loadPackage, runWorkflow, shutdownN8n, testCredential, type StepSpec } from './n8n-harness';
import { packCatalog } from '../../nodes/common/catalog-data';
import { exampleInputs, exampleOperations } from './examples';

let engine: TestEngine;
let loader: Awaited<ReturnType<typeof loadPackage>>;
const creds = () => ({ apiKey: engine.keys.test, baseUrl: engine.url });

const address = (extra: IDataObject = {}): IDataObject => ({
  address_line1: '210 King St',
  additionalFields: {
    name: 'Harry Zhang',
    address_city: 'San Francisco',
    address_state: 'CA',
    address_zip: '94107',
    ...extra,
  },
});

const step = (
  name: string,
  resource: string,
  operation: string,
  parameters: IDataObject = {},
  extra: Partial<StepSpec> = {},
): StepSpec => ({
  name,
  parameters: { resource, operation, ...parameters } as StepSpec['parameters'],
  ...extra,
});

test.before(async () => {
  engine = await startEngine({ settings: { rate_limit_per_5s: 100000 } });
  const { n8nDir } = await builtPacks();
  loader = await loadPackage(n8nDir);
});

test.after.always(async () => {
  await engine?.close();
  shutdownN8n();
});

test('the package loads with n8n-core: the node and its trigger, one credential, classes named after files', (t) => {
  t.deepEqual(Object.keys(loader.nodeTypes), ['printpost', 'printpostTrigger']);
  t.deepEqual(Object.keys(loader.credentialTypes), ['printpostApi']);
  t.is(loader.known.nodes.printpost.className, 'Printpost');
  t.is(loader.known.nodes.printpostTrigger.className, 'PrintpostTrigger');
  t.is(loader.known.credentials.printpostApi.className, 'PrintpostApi');
  const description = loader.types.nodes.find((d) => d.name === 'printpost')!;
  t.true(description.usableAsTool === true);
  t.truthy(description.codex?.categories?.length);
  t.deepEqual(Object.keys((description as unknown as { iconUrl: object }).iconUrl).sort(), ['dark', 'light']);
});

test('the credential test passes with a secret or a publishable key, and fails with 401 for a bad key', async (t) => {
  for (const key of [engine.keys.test, engine.keys.testPub]) {
    const r = await testCredential(loader, { apiKey: key, baseUrl: `${engine.url}/` });
    t.falsy(r.error(), r.error()?.message);
    t.is(r.json('Test')[0]?.object, 'us_autocompletion');
  }
  const bad = await testCredential(loader, { apiKey: 'test_nope', baseUrl: engine.url });
  t.truthy(bad.error());
  t.is((bad.error() as { httpCode?: string } | undefined)?.httpCode, '401');
});

test('create, then retrieve by the id the create returned', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'addresses', 'create', address({ metadata: { pairs: [{ key: 'customer', value: 'c-1' }] } })),
    step('Get', 'addresses', 'retrieve', { id: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [created] = r.json('Create');
  t.regex(String(created.id), /^adr_/);
  t.is(created.address_line1, '210 KING ST');
  t.deepEqual(created.metadata, { customer: 'c-1' });
  const [got] = r.json('Get');
  t.is(got.id, created.id);
});

test('list with a limit yields one item per object; Return All follows next_url over several pages', async (t) => {
  const call = client(engine.url, engine.keys.test);
  const tag = `page-${Date.now()}`;
  for (let i = 0; i < 205; i++) {
    const res = await call('POST', '/v1/addresses', {
      json: {
        name: `P ${i}`,
        address_line1: '1 Main St',
        address_city: 'Boston',
        address_state: 'MA',
        address_zip: '02110',
        metadata: { tag },
      },
    });
    if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  }
  const limited = await runWorkflow(loader, creds(), [
    step('List', 'addresses', 'list', { returnAll: false, limit: 7 }),
  ]);
  t.falsy(limited.error(), limited.error()?.message);
  const items = limited.json('List');
  t.is(items.length, 7);
  t.true(items.every((i) => i.object === 'address'));

  const all = await runWorkflow(loader, creds(), [
    step('List', 'addresses', 'list', {
      returnAll: true,
      filters: { metadata: { pairs: [{ key: 'tag', value: tag }] } },
    }),
  ]);
  t.falsy(all.error(), all.error()?.message);
  const every = all.json('List');
  t.is(every.length, 205);
  t.is(new Set(every.map((i) => i.id)).size, 205);
});

test('delete yields {id, deleted: true}', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step('Create', 'addresses', 'create', address()),
    step('Delete', 'addresses', 'delete', { id: { __rl: true, mode: 'id', value: '={{ $json.id }}' } }),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [created] = r.json('Create');
  t.deepEqual(r.json('Delete'), [{ id: created.id, deleted: true }]);
});

test('a bad key fails the step loudly with the engine message, one page or all of them', async (t) => {
  // Return All runs the node's paginator in place of the operation's postReceive: it raises the same error
  for (const returnAll of [false, true]) {
    const r = await runWorkflow(loader, { apiKey: 'test_nope', baseUrl: engine.url }, [
      step('List', 'addresses', 'list', returnAll ? { returnAll } : { returnAll, limit: 1 }),
    ]);
    const error = r.error();
    t.truthy(error, `returnAll: ${returnAll}`);
    t.regex(String(error?.message), /401|auth|key/i);
    t.is((error as { httpCode?: string } | undefined)?.httpCode, '401');
  }
});

test('a 422 with Continue On Fail yields an error item and the good items still go through', async (t) => {
  const r = await runWorkflow(
    loader,
    creds(),
    [
      step(
        'Create',
        'addresses',
        'create',
        {
          address_line1: '={{ $json.line }}',
          additionalFields: {
            name: '={{ $json.name }}',
            address_city: 'Boston',
            address_state: 'MA',
            address_zip: '={{ $json.zip }}',
          },
        },
        { continueOnFail: true },
      ),
    ],
    [
      { line: '1 Main St', name: 'Good', zip: '02110' },
      { line: '1 Main St', name: 'Bad zip', zip: 'nope' },
    ],
  );
  t.falsy(r.error(), r.error()?.message);
  const [good, bad] = r.json('Create');
  t.regex(String(good.id), /^adr_/);
  t.truthy(bad.error);
  t.regex(JSON.stringify(bad), /address_zip/);
});

test('with Continue On Fail the error item carries the spec error body: message, code and status_code', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step(
      'Create',
      'addresses',
      'create',
      {
        address_line1: '1 Main St',
        additionalFields: { name: 'Bad zip', address_city: 'Boston', address_state: 'MA', address_zip: 'nope' },
      },
      { continueOnFail: true },
    ),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [bad] = r.json('Create');
  const error = bad.error as { message: string; code: string; status_code: number };
  t.like(error, { code: 'invalid', status_code: 422 });
  t.regex(error.message, /address_zip/);
});

test('a 422 with the error output routes the item to the second output', async (t) => {
  const r = await runWorkflow(loader, creds(), [
    step(
      'Create',
      'addresses',
      'create',
      {
        address_line1: '1 Main St',
        additionalFields: { address_city: 'Boston', address_state: 'MA', address_zip: '02110' },
      },
      { onError: 'continueErrorOutput' },
    ),
  ]);
  t.falsy(r.error(), r.error()?.message);
  const [ok, failed] = r.outputs('Create');
  t.is(ok.length, 0);
  t.is(failed.length, 1);
  t.regex(JSON.stringify(failed[0].json), /name or company/);
});

test('the address picker (list search) lists saved addresses and filters them', async (t) => {
  const call = client(engine.url, engine.keys.test);
  const created = await call('POST', '/v1/addresses', {
    json: {
      name: 'Picker Person',
      address_line1: '1 Main St',
      address_city: 'Boston',
      address_state: 'MA',
      address_zip: '02110',
    },
  });
  const all = await listSearch(loader, creds(), 'searchAddresses');
  t.true(all.results.length > 0);
  const found = await listSearch(loader, creds(), 'searchAddresses', 'picker person');
  t.true(found.results.some((r) => r.value === created.body.id));
  t.true(found.results.every((r) => /picker person/i.test(r.name)));
});

// Each verification-style operation (POST without a stored object), from the catalog's examples,
// with a publishable key where the catalog allows one.
for (const { resource, operation } of exampleOperations(packCatalog)) {
  test(`${resource.name}.${operation.name} runs from the catalog's examples`, async (t) => {
    const { n8n } = exampleInputs(operation, packCatalog);
    const key = operation.publishable ? engine.keys.testPub : engine.keys.test;
    const r = await runWorkflow(loader, { apiKey: key, baseUrl: engine.url }, [
      step('Run', resource.name, operation.name, n8n as IDataObject),
    ]);
    t.falsy(r.error(), r.error()?.message);
    const [out] = r.json('Run');
    t.truthy(out);
    if (operation.responseSchema)
      t.deepEqual(Object.keys(out).sort(), Object.keys(operation.responseSchema.properties ?? {}).sort());
    else if (typeof resource.sample.object === 'string') t.is(out.object, resource.sample.object);
  });
}
