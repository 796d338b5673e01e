// GET /v1/openapi.json: a valid OpenAPI 3.1 document generated from the catalog, served without a key,
// listing every operation, with the spec's limits in its schemas, and true of what the engine returns.
import test from 'ava';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { allOperations } from '../../engine/catalog';
import { startEngine, type TestEngine } from '../helpers/engine';
import { client } from '../helpers/http';

type Json = Record<string, any>;

let engine: TestEngine;
let doc: Json;

test.before(async () => {
  engine = await startEngine({ db: 'sqlite' });
  const r = await fetch(`${engine.url}/v1/openapi.json`);
  if (r.status !== 200) throw new Error(`GET /v1/openapi.json: ${r.status} ${await r.text()}`);
  doc = (await r.json()) as Json;
});

test.after.always(async () => {
  await engine?.close();
});

/** Resolves a local `$ref` (one level) so tests can read the schema it points to. */
function deref(schema: Json): Json {
  if (typeof schema?.$ref !== 'string') return schema;
  return schema.$ref
    .slice(2)
    .split('/')
    .reduce((node: Json, part: string) => node[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
}

/** The non-null member of a `nullable()` union, or the schema itself. */
const nonNull = (schema: Json): Json =>
  Array.isArray(schema.anyOf) ? schema.anyOf.find((s: Json) => s.type !== 'null') : schema;

test('served without a key, as JSON, with the request origin as server', async (t) => {
  const r = await fetch(`${engine.url}/v1/openapi.json`);
  t.is(r.status, 200);
  t.regex(r.headers.get('content-type') ?? '', /^application\/json/);
  t.deepEqual(doc.servers, [{ url: engine.url }]);
  const withKey = await client(engine.url, engine.keys.test)('GET', '/v1/openapi.json');
  t.is(withKey.status, 200);
  t.is((await client(engine.url, engine.keys.test)('POST', '/v1/openapi.json')).status, 405, 'only GET is served');
});

test('is a valid OpenAPI 3.1 document (and the validator does refuse a broken one)', async (t) => {
  const { Validator } = await import('@seriousme/openapi-schema-validator'); // an ES module
  t.is(doc.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(structuredClone(doc));
  t.true(result.valid, JSON.stringify(result.errors, null, 2));
  t.is(validator.version, '3.1');

  const broken = structuredClone(doc);
  delete broken.info;
  broken.paths['/v1/addresses'].get.responses = 'none';
  t.false((await new Validator().validate(broken)).valid);
});

test('lists every catalog operation, once, with its method, path, parameters and responses', (t) => {
  const operations = allOperations();
  t.true(operations.length >= 4);
  const ids = new Set<string>();
  for (const { resource, operation } of operations) {
    const entry = doc.paths[operation.path]?.[operation.method.toLowerCase()] as Json | undefined;
    if (!entry) {
      t.fail(`${operation.method} ${operation.path} missing`);
      continue;
    }
    t.is(entry.operationId, `${resource.name}_${operation.name}`);
    t.false(ids.has(entry.operationId), 'operationIds are unique');
    ids.add(entry.operationId);
    t.is(entry.summary, operation.summary);
    t.truthy(entry.responses['200']?.content?.['application/json']?.schema, `${entry.operationId} 200`);
    for (const status of ['401', '404', '422', '429'])
      t.is(deref(entry.responses[status].content['application/json'].schema), doc.components.schemas.error);
    if (operation.path.includes('{id}')) {
      t.like(
        entry.parameters.find((p: Json) => p.in === 'path' && p.name === 'id'),
        { name: 'id', required: true, schema: { pattern: resource.idPattern } },
      );
    }
    if (operation.body)
      t.deepEqual(Object.keys(entry.requestBody.content).sort(), [
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
      ]);
    for (const name of Object.keys(operation.query?.properties ?? {}))
      t.truthy(
        entry.parameters.find((p: Json) => p.in === 'query' && p.name === name),
        `${entry.operationId} ?${name}`,
      );
  }
  const documented = Object.values(doc.paths as Json).flatMap((item: Json) => Object.keys(item));
  t.is(documented.length, operations.length, 'nothing outside the catalog');
  t.deepEqual(doc.components.securitySchemes.basicAuth, {
    type: 'http',
    scheme: 'basic',
    description: doc.components.securitySchemes.basicAuth.description,
  });
});

test("the address object schema carries the spec's limits", (t) => {
  const address = doc.components.schemas.address as Json;
  const p = address.properties as Json;
  t.like(p.id, { type: 'string', pattern: '^adr_[a-zA-Z0-9]+$' });
  t.like(p.object, { const: 'address' });
  for (const [field, max] of [
    ['name', 40],
    ['company', 40],
    ['phone', 40],
    ['email', 100],
    ['description', 255],
    ['address_line2', 200],
    ['address_city', 200],
  ] as const) {
    t.like(nonNull(p[field]), { type: 'string', maxLength: max }, field);
    t.true(
      p[field].anyOf.some((s: Json) => s.type === 'null'),
      `${field} is nullable`,
    );
  }
  t.like(p.address_line1, { type: 'string', maxLength: 200 });
  t.like(nonNull(p.recipient_moved), { type: 'boolean' });
  for (const field of ['date_created', 'date_modified']) t.like(p[field], { type: 'string', format: 'date-time' });
  t.like(p.metadata, { type: 'object', maxProperties: 20 });
  const [keyPattern, value] = Object.entries(p.metadata.patternProperties as Json)[0];
  t.true(new RegExp(keyPattern).test('k'.repeat(40)));
  t.false(new RegExp(keyPattern).test('k'.repeat(41)), 'metadata keys at most 40');
  t.false(new RegExp(keyPattern).test('a"b'), 'no double quote in keys');
  t.like(value, { type: 'string', maxLength: 500 });
  for (const field of ['id', 'address_line1', 'address_country', 'date_created', 'date_modified', 'object'])
    t.true(address.required.includes(field), field);
});

test("the create body and the list query carry the spec's rules", (t) => {
  const body = doc.paths['/v1/addresses'].post.requestBody.content['application/json'].schema as Json;
  const p = body.properties as Json;
  t.deepEqual(body.required, ['address_line1']);
  for (const [field, max] of [
    ['name', 40],
    ['company', 40],
    ['phone', 40],
    ['email', 100],
    ['description', 255],
    ['address_city', 200],
  ] as const) {
    t.like(nonNull(p[field]), { type: 'string', maxLength: max }, field);
  }
  t.like(p.address_line1, { type: 'string', minLength: 1, maxLength: 200 });
  t.regex(p.address_line1.description, /64/, 'the US limit of 64 is documented');
  t.like(p.address_country, { type: 'string', pattern: '^[A-Za-z]{2}$', default: 'US' });
  t.like(p.metadata, { maxProperties: 20 });

  const parameters = doc.paths['/v1/addresses'].get.parameters as Json[];
  const param = (name: string) => parameters.find((x) => x.name === name) as Json;
  t.like(param('limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 10 });
  t.like(param('include').schema, { type: 'array', items: { type: 'string' }, examples: [['total_count']] });
  t.regex(param('include').schema.description, /other values are ignored/);
  t.like(param('date_created'), { style: 'deepObject', explode: true });
  t.deepEqual(Object.keys(param('date_created').schema.properties).sort(), ['gt', 'gte', 'lt', 'lte']);
  t.like(param('metadata'), { style: 'deepObject', schema: { maxProperties: 20 } });
  for (const name of ['before', 'after']) t.like(param(name).schema, { type: 'string' });
});

test('its schemas are valid JSON Schema 2020-12, and what the engine returns conforms to them', async (t) => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false });
  addFormats(ajv);
  ajv.addKeyword('errorMessage');
  // The component schemas as one JSON Schema resource; the document's `#/components/schemas/…` refs point into it.
  const toDefs = (value: unknown): unknown =>
    typeof value === 'string' && value.startsWith('#/components/schemas/')
      ? value.replace('#/components/schemas/', 'components.json#/$defs/')
      : Array.isArray(value)
        ? value.map(toDefs)
        : value && typeof value === 'object'
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toDefs(v)]))
          : value;
  ajv.addSchema({ $id: 'components.json', $defs: toDefs(doc.components.schemas) as Json });
  const check = (schema: Json, value: unknown, label: string) => {
    const validate = ajv.compile(toDefs(schema) as Json);
    t.true(validate(value), `${label}: ${ajv.errorsText(validate.errors)}`);
  };
  const address = doc.components.schemas.address as Json;
  for (const example of address.examples) check({ $ref: '#/components/schemas/address' }, example, 'sample');

  const api = client(engine.url, engine.keys.test);
  const response = (path: string, method: string, status: number) =>
    doc.paths[path][method].responses[String(status)].content['application/json'].schema as Json;
  const us = await api('POST', '/v1/addresses', {
    json: {
      name: 'Harry',
      address_line1: '210 King St',
      address_city: 'San Francisco',
      address_state: 'CA',
      address_zip: '94107',
      metadata: { k: 'v' },
    },
  });
  const intl = await api('POST', '/v1/addresses', {
    json: { company: 'Acme', address_line1: '370 Water St', address_country: 'CA' },
  });
  for (const r of [us, intl]) {
    t.is(r.status, 200);
    check(response('/v1/addresses', 'post', 200), r.body, 'create');
  }
  check(response('/v1/addresses/{id}', 'get', 200), (await api('GET', `/v1/addresses/${us.body.id}`)).body, 'retrieve');
  check(
    response('/v1/addresses', 'get', 200),
    (await api('GET', '/v1/addresses?limit=1&include[]=total_count')).body,
    'list',
  );
  check(
    response('/v1/addresses/{id}', 'delete', 200),
    (await api('DELETE', `/v1/addresses/${us.body.id}`)).body,
    'delete',
  );
  check(response('/v1/addresses/{id}', 'get', 404), (await api('GET', `/v1/addresses/${us.body.id}`)).body, '404');
  check(
    response('/v1/addresses', 'post', 422),
    (await api('POST', '/v1/addresses', { json: { name: 'x' } })).body,
    '422',
  );
  check(response('/v1/addresses', 'get', 401), (await api('GET', '/v1/addresses', { key: 'nope' })).body, '401');

  // and the schemas do reject what the engine must never send
  const validateAddress = ajv.compile({ $ref: 'components.json#/$defs/address' });
  t.false(validateAddress({ ...us.body, name: 'n'.repeat(41) }));
  t.false(validateAddress({ ...us.body, id: 'psc_123' }));
});

test('bulk verification answers are documented as bulk envelopes', async (t) => {
  const engine = await startEngine();
  try {
    const doc = (await (await fetch(`${engine.url}/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content: Record<string, { schema: { properties?: Record<string, unknown> } }> }
            >;
          }
        >
      >;
    };
    for (const path of ['/v1/bulk/us_verifications', '/v1/bulk/intl_verifications']) {
      const schema = doc.paths[path].post.responses['200'].content['application/json'].schema;
      t.deepEqual(Object.keys(schema.properties ?? {}).sort(), ['addresses', 'errors'], path);
    }
  } finally {
    await engine.close();
  }
});
