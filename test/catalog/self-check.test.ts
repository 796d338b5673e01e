// The catalog checks itself: every operation routes, every path parameter is bound, every filter has a
// column in the migrated database, every event type belongs to its resource, every sample validates.
import test from 'ava';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { allOperations, catalog, pathParameterNames, prefixOfParameter } from '../../engine/catalog';
import { FILTER_COLUMNS } from '../../engine/catalog/list-filters';
import { Router } from '../../engine/http/router';
import { apiRoutes, engineRoute, type Route } from '../../engine/http/routes';
import { openApiDocument } from '../../engine/http/openapi';
import { DATABASES } from '../helpers/matrix';
import { openFreshServices } from '../helpers/services';
import { toPackCatalog } from '../../nodes/common/pack-catalog';
import { nodeProperties } from '../../nodes/Printpost/generate';
import { coverage } from '../../nodes/zapier/actions';

const sampleValue = (name: string) => (name === 'id' ? 'x_1' : `${prefixOfParameter(name)}_1`);
const fill = (template: string) => template.replace(/\{(\w+)\}/g, (_m, name: string) => sampleValue(name));

test('every operation routes to itself, with its path parameters bound by name', (t) => {
  const router = new Router(apiRoutes());
  for (const { resource, operation } of allOperations()) {
    const match = router.match(operation.method, fill(operation.path));
    t.truthy(match, `${operation.method} ${operation.path}`);
    t.is(
      match!.route.kind === 'api' && match!.route.operation,
      operation,
      `${operation.method} ${operation.path} routes elsewhere`,
    );
    t.deepEqual(Object.keys(match!.params), pathParameterNames(operation.path));
    for (const name of pathParameterNames(operation.path)) {
      const prefix = prefixOfParameter(name);
      t.true(
        name === 'id' || catalog.some((r) => r.idPrefix === prefix),
        `${resource.name}: {${name}} names no resource`,
      );
    }
  }
});

test('a route with two path parameters binds both, percent-decoded, and OpenAPI declares both', (t) => {
  const router = new Router(apiRoutes());
  const match = router.match('GET', '/v1/templates/tmpl_a%2Fb/versions/vrsn_1');
  t.deepEqual(match?.params, { tmpl_id: 'tmpl_a/b', id: 'vrsn_1' });
  t.is(match?.route.label, 'GET /v1/templates/{tmpl_id}/versions/{id}');
  t.is(router.match('GET', '/v1/templates/tmpl_a/versions')?.route.label, 'GET /v1/templates/{tmpl_id}/versions');
  t.is(router.match('GET', '/v1/templates/tmpl_a/versions/v/extra'), undefined);
  // the engine's own paths share the table and bind the same way
  const own = new Router<Route>([
    ...apiRoutes(),
    engineRoute('GET', '/v1/assets/{ltr_id}/{id}', () => undefined),
  ]).match('GET', '/v1/assets/ltr_1/page%201.pdf');
  t.deepEqual(own?.params, { ltr_id: 'ltr_1', id: 'page 1.pdf' });
  const paths = openApiDocument().paths as Record<
    string,
    Record<string, { parameters?: { name: string; in: string }[] }>
  >;
  for (const { operation } of allOperations()) {
    const declared = (paths[operation.path][operation.method.toLowerCase()].parameters ?? [])
      .filter((p) => p.in === 'path')
      .map((p) => p.name);
    t.deepEqual(declared, pathParameterNames(operation.path), `${operation.method} ${operation.path}`);
  }
});

test('every event type is named after its resource; every sample validates against its schema', (t) => {
  for (const resource of catalog) {
    for (const event of resource.events) t.true(event.startsWith(`${resource.object}.`), `${resource.name}: ${event}`);
    const check = TypeCompiler.Compile(resource.schema);
    t.true(
      check.Check(resource.sample),
      `${resource.name}: ${JSON.stringify([...check.Errors(resource.sample)].slice(0, 2).map((e) => `${e.path} ${e.message}`))}`,
    );
    t.regex(
      String(resource.sample.id ?? `${resource.idPrefix}_x`),
      new RegExp(resource.idPattern.replace(/\$$/, '')),
      `${resource.name}: sample id`,
    );
  }
});

test('list operations declare only filters and sorts their query accepts', (t) => {
  for (const { resource, operation } of allOperations().filter(({ operation }) => operation.response === 'list')) {
    t.truthy(operation.query?.properties.limit, `${resource.name}: a list takes the common parameters`);
    for (const filter of operation.filters ?? []) {
      t.true(FILTER_COLUMNS.includes(filter.column), `${resource.name}: ${filter.name}`);
      t.truthy(operation.query?.properties[filter.name], `${resource.name}: ${filter.name} is in the query schema`);
    }
    if (operation.sorts?.length) t.truthy(operation.query?.properties.sort_by, `${resource.name}: sort_by`);
  }
});

for (const db of DATABASES) {
  test(`${db}: every filter column exists in the migrated objects table`, async (t) => {
    const { knex, cleanup } = await openFreshServices(db);
    try {
      const columns = Object.keys(await knex('objects').columnInfo());
      for (const column of FILTER_COLUMNS) t.true(columns.includes(column), column);
      t.truthy(await knex.schema.hasTable('events'), 'the event outbox exists');
    } finally {
      await cleanup();
    }
  });
}

test('no list filter carries a default: a filter left out of the query must filter nothing', (t) => {
  for (const { resource, operation } of allOperations()) {
    for (const filter of operation.filters ?? []) {
      t.is(filter.schema.default, undefined, `${resource.name} ${filter.name} has a default`);
    }
  }
});

/**
 * One row per catalog operation: where each product serves it. The engine routes it to its handler,
 * the OpenAPI document declares it, the n8n node offers it under its resource, the Zapier app has it
 * (a create, a search, or the hidden list trigger that fills dropdowns).
 */
function selfCheckTable() {
  const router = new Router(apiRoutes());
  const openapi = openApiDocument().paths as Record<string, Record<string, unknown>>;
  const packResources = toPackCatalog(catalog);
  const n8nOperations = new Set(
    nodeProperties(packResources)
      .filter((p) => p.name === 'operation')
      .flatMap((p) =>
        (p.options as { value: string }[]).map((o) => `${String(p.displayOptions?.show?.resource)}.${o.value}`),
      ),
  );
  const zapier = new Map(coverage(packResources).map((c) => [`${c.resource}.${c.operation}`, c.zapier]));
  return allOperations().map(({ resource, operation }) => {
    const match = router.match(operation.method, fill(operation.path));
    const name = `${resource.name}.${operation.name}`;
    return {
      operation: name,
      route: match?.route.kind === 'api' && match.route.operation === operation ? match.route.label : undefined,
      handler: match?.route.kind === 'api' && match.route.served.operation === operation ? 'served' : undefined,
      openapi: openapi[operation.path]?.[operation.method.toLowerCase()]
        ? `${operation.method} ${operation.path}`
        : undefined,
      n8n: n8nOperations.has(name) ? name : undefined,
      zapier: zapier.get(name),
    };
  });
}

test('the self-check table: every operation has its route, handler, OpenAPI entry, n8n operation and Zapier key', (t) => {
  const table = selfCheckTable();
  const gaps = table.filter((row) => Object.values(row).some((cell) => cell === undefined));
  t.deepEqual(gaps, []);
  for (const row of table) t.is(row.handler, 'served', row.operation);
});
