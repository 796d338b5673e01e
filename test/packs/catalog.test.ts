// Both packs cover the whole catalog, and the generators handle every kind of field a future
// resource may bring (nested objects, id-or-object unions, arrays, enums, records, custom verbs).
import test from 'ava';
import fs from 'node:fs';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { NodeHelpers, type INodeProperties, type INodeTypeDescription } from 'n8n-workflow';
import { allOperations, catalog } from '../../engine/catalog';
import { toPackCatalog, type PackResource } from '../../nodes/common/pack-catalog';
import { nodeProperties } from '../../nodes/Printpost/generate';
import { descriptionFiles, triggerDescriptionFiles, writeDescriptions } from '../../scripts/n8n-descriptions';
import { eventProperties } from '../../triggers/PrintpostTrigger/generate';
import { coverage } from '../../nodes/zapier/actions';
import { buildApp } from '../../nodes/zapier/app';
import { buildBody } from '../../nodes/zapier/fields';
import { builtPacks } from './build-once';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { validateApp } = require('zapier-platform-core/src/tools/schema') as { validateApp(app: unknown): unknown[] };

type AnyObj = Record<string, any>;

async function built() {
  const { n8nDir, zapierDir } = await builtPacks();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Printpost } = require(join(n8nDir, 'dist/nodes/Printpost/Printpost.node.js'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { PrintpostTrigger } = require(join(n8nDir, 'dist/nodes/PrintpostTrigger/PrintpostTrigger.node.js'));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const app = require(zapierDir) as AnyObj;
  return {
    description: new Printpost().description as INodeTypeDescription,
    trigger: new PrintpostTrigger().description as INodeTypeDescription,
    app,
  };
}

function n8nOperations(description: INodeTypeDescription) {
  const found = new Set<string>();
  const resources =
    description.properties.find((p) => p.name === 'resource')?.options?.map((o) => (o as { value: string }).value) ??
    [];
  for (const p of description.properties.filter((x) => x.name === 'operation')) {
    const [resource] = (p.displayOptions?.show?.resource ?? []) as string[];
    if (!resources.includes(resource)) continue;
    for (const o of (p.options ?? []) as { value: string; routing?: AnyObj }[])
      if (o.routing?.request?.method) found.add(`${resource}.${o.value}`);
  }
  return found;
}

test('every catalog operation is in the built n8n node, with its method', async (t) => {
  const { description } = await built();
  const found = n8nOperations(description);
  const missing = allOperations()
    .map(({ resource, operation }) => `${resource.name}.${operation.name}`)
    .filter((k) => !found.has(k));
  t.deepEqual(missing, []);
  t.true(allOperations().length > 0);
});

test('every catalog operation is in the built Zapier app', async (t) => {
  const { app } = await built();
  const places = coverage(toPackCatalog(catalog));
  t.is(places.length, allOperations().length);
  const missing = places.filter((p) => {
    if (!p.zapier) return true;
    const [kind, key] = p.zapier.split('.');
    return !app[kind]?.[key];
  });
  t.deepEqual(missing, []);
});

test('every catalog event type is offered by the built n8n trigger and by a Zapier instant trigger', async (t) => {
  const { trigger, app } = await built();
  const n8n = new Set(
    trigger.properties
      .filter((p) => p.name === 'events')
      .flatMap((p) => (p.options ?? []).map((o) => (o as { value: string }).value)),
  );
  const zapier = new Set(
    Object.values(app.triggers as Record<string, AnyObj>)
      .filter((tr) => tr.operation.type === 'hook')
      .flatMap((tr) => tr.operation.inputFields[0].choices.map((c: { value: string }) => c.value)),
  );
  const types = catalog.flatMap((r) => r.events);
  t.true(types.length > 0);
  t.deepEqual(
    types.filter((type) => !n8n.has(type)),
    [],
  );
  t.deepEqual(
    types.filter((type) => !zapier.has(type)),
    [],
  );
});

test('the built packs carry the catalog as data, not the engine', async (t) => {
  const { n8nDir, zapierDir } = await builtPacks();
  const fs = await import('node:fs');
  for (const file of [
    join(n8nDir, 'dist/nodes/Printpost/Printpost.node.js'),
    join(n8nDir, 'dist/nodes/PrintpostTrigger/PrintpostTrigger.node.js'),
    join(zapierDir, 'index.js'),
  ]) {
    const code = fs.readFileSync(file, 'utf8');
    t.false(/@sinclair\/typebox|engine\/(http|store|events)|engine\/catalog\/(?!paths|blank)/.test(code), file);
    t.true(code.includes(file.includes('Trigger') ? '"postcard.rendered_pdf"' : '"address_line1"'), file);
  }
  const pkg = JSON.parse(fs.readFileSync(join(n8nDir, 'package.json'), 'utf8'));
  t.deepEqual(pkg.peerDependencies, { 'n8n-workflow': '*' });
  t.is(pkg.dependencies, undefined);
  t.true(pkg.keywords.includes('n8n-community-node-package'));
  t.is(pkg.n8n.n8nNodesApiVersion, 1);
});

// ---- a resource of every shape the mail resources will bring ----

const address = Type.Object({
  name: Type.Optional(Type.String({ description: 'Name.', examples: ['HARRY'] })),
  address_line1: Type.String({ description: 'Line 1.' }),
  metadata: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Key/value pairs.' })),
});
const synthetic = toPackCatalog([
  ...catalog,
  {
    name: 'flyers',
    title: 'Flyer',
    object: 'flyer',
    idPrefix: 'fly',
    idPattern: '^fly_[a-zA-Z0-9]+$',
    description: 'Flyers.',
    schema: Type.Object({ id: Type.String(), to: address, size: Type.String(), object: Type.Literal('flyer') }),
    operations: [
      {
        name: 'create',
        method: 'POST',
        path: '/v1/flyers',
        summary: 'Create a flyer',
        idempotent: true,
        response: 'object',
        body: Type.Object({
          to: Type.Union([Type.String({ pattern: '^adr_[a-zA-Z0-9]+$', description: 'Recipient.' }), address]),
          from: Type.Optional(
            Type.Union([Type.String({ pattern: '^adr_[a-zA-Z0-9]+$', description: 'Sender.' }), address]),
          ),
          size: Type.Optional(
            Type.Union([Type.Literal('4x6'), Type.Literal('6x9'), Type.Literal('6x11')], {
              default: '4x6',
              description: 'Size.',
            }),
          ),
          use_type: Type.Union([Type.Literal('marketing'), Type.Literal('operational'), Type.Null()], {
            description: 'Use type.',
          }),
          color: Type.Optional(Type.Boolean({ description: 'Whether to print in color.' })),
          quantity: Type.Optional(Type.Integer({ minimum: 1, maximum: 10, description: 'How many.' })),
          merge_variables: Type.Optional(
            Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], { description: 'Merge variables.' }),
          ),
          tags: Type.Optional(Type.Array(Type.String(), { description: 'Tags.' })),
          lines: Type.Optional(
            Type.Array(
              Type.Object({
                text: Type.String({ description: 'Text.' }),
                qty: Type.Optional(Type.Integer({ description: 'Qty.' })),
              }),
              { description: 'Lines.' },
            ),
          ),
          send_date: Type.Optional(Type.String({ format: 'date-time', description: 'When to send.' })),
          artwork: Type.Union([
            Type.String({ description: 'HTML or a URL.' }),
            Type.Unsafe({ type: 'string', format: 'binary' }),
          ]),
          insert: Type.Optional(Type.Unsafe({ type: 'string', format: 'binary', description: 'A file only.' })),
          finish: Type.Optional(
            Type.Union([Type.Union([Type.Literal('matte'), Type.Literal('gloss')]), Type.Null()], {
              description: 'Finish.',
            }),
          ),
          envelope: Type.Optional(Type.Union([Type.Boolean(), Type.Literal('window')], { description: 'Envelope.' })),
          badge: Type.Optional(
            Type.Object(
              { kind: Type.Literal('star'), size: Type.Number({ description: 'Inches.' }) },
              { description: 'A badge.' },
            ),
          ),
        }),
        files: ['artwork', 'insert'],
      },
      {
        name: 'retrieve',
        method: 'GET',
        path: '/v1/flyers/{id}',
        summary: 'Retrieve a flyer',
        response: 'object',
      },
      {
        name: 'list',
        method: 'GET',
        path: '/v1/flyers',
        summary: 'List flyers',
        response: 'list',
        query: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
          after: Type.Optional(Type.String()),
          status: Type.Optional(Type.Union([Type.Literal('processed'), Type.Literal('rendered')])),
        }),
      },
      {
        name: 'cancel',
        method: 'DELETE',
        path: '/v1/flyers/{id}',
        summary: 'Cancel a flyer',
        response: 'deleted',
      },
      {
        name: 'verify',
        method: 'POST',
        path: '/v1/flyers/{id}/verify',
        summary: 'Verify a flyer',
        response: 'object',
        body: Type.Object({
          amounts: Type.Array(Type.Integer(), { minItems: 2, maxItems: 2, description: 'Two amounts in cents.' }),
        }),
      },
    ],
    events: ['flyer.created'],
    sample: { id: 'fly_123', object: 'flyer' },
  },
] as never) as PackResource[];

const find = (props: INodeProperties[], name: string, op: string) =>
  props.filter(
    (p) =>
      p.name === name &&
      (p.displayOptions?.show?.resource as string[] | undefined)?.includes('flyers') &&
      (p.displayOptions?.show?.operation as string[] | undefined)?.includes(op),
  );

test('n8n generator: id-or-object, enums, nullable enums, records, arrays, custom verbs, idempotency', (t) => {
  const props = nodeProperties(synthetic);
  const source = find(props, 'toSource', 'create')[0];
  t.deepEqual(
    source.options?.map((o) => (o as { value: string }).value),
    ['id', 'inline'],
  );
  const [toId, toInline] = find(props, 'to', 'create');
  t.is(toId.type, 'resourceLocator');
  t.deepEqual(toId.displayOptions?.show?.toSource, ['id']);
  t.is(toInline.type, 'fixedCollection');
  t.deepEqual(
    (find(props, 'fromSource', 'create')[0].options ?? []).map((o) => (o as { value: string }).value),
    ['none', 'id', 'inline'],
  );
  t.is(find(props, 'use_type', 'create')[0].type, 'options');
  t.true(find(props, 'use_type', 'create')[0].required);
  const additional = find(props, 'additionalFields', 'create')[0].options as INodeProperties[];
  const byName = Object.fromEntries(additional.map((p) => [p.name, p]));
  t.is(byName.size.type, 'options');
  t.is(byName.size.default, '4x6');
  t.is(byName.color.type, 'boolean');
  t.deepEqual(byName.quantity.typeOptions, { minValue: 1, maxValue: 10, numberPrecision: 0 });
  t.is(byName.merge_variables.type, 'json', 'free-form values (merge variables) are JSON');
  t.deepEqual(
    byName.finish.options?.map((o) => (o as { value: string }).value),
    ['matte', 'gloss'],
    'a nullable enum (union in a union) is a choice',
  );
  t.deepEqual(
    byName.envelope.options?.map((o) => (o as { value: unknown }).value),
    [true, false, 'window'],
  );
  // upload fields: the required one chooses text or binary; the optional file-only one names a binary property
  const [artworkSource] = find(props, 'artworkSource', 'create');
  t.deepEqual(
    artworkSource.options?.map((o) => (o as { value: string }).value),
    ['text', 'binary'],
  );
  t.deepEqual(find(props, 'artwork', 'create')[0].displayOptions?.show?.artworkSource, ['text']);
  t.deepEqual(find(props, 'artwork', 'create')[0].routing?.send, { type: 'body', property: 'artwork' });
  const [artworkBinary] = find(props, 'artworkBinaryProperty', 'create');
  t.deepEqual(artworkBinary.displayOptions?.show?.artworkSource, ['binary']);
  t.is(artworkBinary.routing, undefined, 'read by the preSend, not routed');
  t.false('insert' in byName, 'a file-only field has no text form');
  t.is(byName.insertBinaryProperty.type, 'string');
  t.is(byName.tags.typeOptions?.multipleValues, true);
  t.is(byName.lines.type, 'fixedCollection');
  t.truthy(find(props, 'options', 'create')[0]);
  const verifyId = find(props, 'id', 'verify')[0];
  t.is(verifyId.routing?.request?.url, '=/v1/flyers/{{ encodeURIComponent($value) }}/verify');
  t.is(find(props, 'amounts', 'verify')[0].typeOptions?.multipleValues, true);
  t.is((find(props, 'filters', 'list')[0].options as INodeProperties[])[0].name, 'status');
  // n8n can resolve defaults of every parameter
  t.notThrows(() => NodeHelpers.getNodeParameters(props, {}, true, false, null, null));
});

test('Zapier generator: the synthetic app validates; flat inputs fold back into the schema', (t) => {
  const app = buildApp(synthetic, '19.1.0');
  t.deepEqual(validateApp(app), []);
  t.truthy(app.creates.flyers_create && app.creates.flyers_cancel && app.creates.flyers_verify);
  t.is(app.triggers.flyer_event?.operation.type, 'hook', "a new resource's events get their instant trigger");
  t.deepEqual(
    eventProperties(synthetic)
      .find((p) => p.name === 'events' && p.displayOptions?.show?.resource?.includes('flyers'))
      ?.options?.map((o) => (o as { value: string }).value),
    ['flyer.created'],
  );
  const fields = app.creates.flyers_create.operation.inputFields;
  t.is(fields.find((f) => f.key === 'to')?.dynamic, 'addresses_list.id.label');
  t.truthy(fields.find((f) => f.key === 'to__address_line1'));
  t.deepEqual(
    fields.find((f) => f.key === 'size')?.choices?.map((c) => c.value),
    ['4x6', '6x9', '6x11'],
  );
  const body = synthetic.find((r) => r.name === 'flyers')!.operations[0].body!;
  t.deepEqual(
    buildBody(
      {
        to: '',
        to__name: 'H',
        to__address_line1: '1 Main',
        to__metadata: { a: '1' },
        color: 'true',
        quantity: '3',
        tags: ['x', 'y'],
        lines: [{ lines__text: 'hi', lines__qty: '2' }],
        junk: 'no',
      },
      body,
      synthetic,
    ),
    {
      to: { name: 'H', address_line1: '1 Main', metadata: { a: '1' } },
      color: true,
      quantity: 3,
      tags: ['x', 'y'],
      lines: [{ text: 'hi', qty: 2 }],
    },
  );
  t.deepEqual(buildBody({ to: 'adr_123', to__name: 'ignored' }, body, synthetic), { to: 'adr_123' });
  // choices typed as text get the schema's own values; a lone-value property of a given object is filled
  t.deepEqual(
    buildBody(
      { to: 'adr_1', envelope: 'true', finish: 'gloss', badge__size: '2', artwork_upload: 'https://x/a.pdf' },
      body,
      synthetic,
    ),
    { to: 'adr_1', envelope: true, finish: 'gloss', badge: { kind: 'star', size: 2 } },
  );
  // upload fields: the text form and a Zapier file field beside it, neither required alone
  const byKey = Object.fromEntries(fields.map((f) => [f.key, f]));
  t.like(byKey.artwork, { type: 'text', required: false });
  t.like(byKey.artwork_upload, { type: 'file', required: false });
  t.like(byKey.insert_upload, { type: 'file', required: false });
  t.false('insert' in byKey, 'a file-only field has no text form');
});

test('the n8n description files are committed as generated from the catalog, and the published node reads them', async (t) => {
  const differ = await writeDescriptions(true);
  t.deepEqual(differ, [], 'run npm run build:n8n and commit nodes/Printpost/descriptions');
  const files = await descriptionFiles();
  const all = [...files.values()].join('\n');
  for (const { resource, operation } of allOperations()) {
    t.true(all.includes(`value: '${operation.name}'`), `${resource.name}.${operation.name}`);
    for (const field of Object.keys(operation.body?.properties ?? {}))
      t.true(all.includes(`'${field}'`), `${resource.name}.${operation.name}: ${field}`);
  }
  const { n8nDir } = await builtPacks();
  const shipped = fs.readdirSync(join(n8nDir, 'nodes/Printpost/descriptions')).sort();
  t.deepEqual(shipped, [...files.keys()].sort());
  const source = fs.readFileSync(join(n8nDir, 'nodes/Printpost/Printpost.node.ts'), 'utf8');
  t.false(/nodeDescription|nodeProperties\(/.test(source), 'nothing is generated when the node loads');
  const { description, trigger } = await built();
  t.deepEqual(
    JSON.parse(JSON.stringify(description.properties)),
    JSON.parse(JSON.stringify(nodeProperties(toPackCatalog(catalog)))),
  );
  // the trigger's event parameters, likewise committed and shipped
  const triggerFiles = await triggerDescriptionFiles();
  t.deepEqual(fs.readdirSync(join(n8nDir, 'nodes/PrintpostTrigger/descriptions')).sort(), [...triggerFiles.keys()]);
  const events = JSON.parse(JSON.stringify(eventProperties(toPackCatalog(catalog))));
  t.deepEqual(
    JSON.parse(JSON.stringify(trigger.properties)).filter((p: INodeProperties) =>
      ['resource', 'events'].includes(p.name),
    ),
    events,
  );
});
