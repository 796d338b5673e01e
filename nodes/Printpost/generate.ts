// The n8n node's resources, operations and fields, generated from the catalog: nothing in here
// names a resource or a field. Declarative style: operations carry routing.request, fields carry
// routing.send, lists paginate on next_url and yield one item per object.
import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { nodeRuntime, type NodeRuntime } from './runtime';
import { fieldsOf, operationLabel, pathParams, title } from '../common/schema';
import { asOption, collectionOf, fieldParameters, parameter, resourceLocator, show } from './parameters';
import { bodyOptions, isUpload, uploadParameters } from './upload-parameters';
import { ADDITIONAL_FIELDS } from './uploads';

const LIST_CONTROL = new Set(['limit', 'before', 'after']);

function operationParameters(
  r: PackResource,
  op: PackOperation,
  resources: readonly PackResource[],
): INodeProperties[] {
  const props: INodeProperties[] = [];
  for (const param of pathParams(op)) {
    const ref = param === 'id' ? r : (resources.find((x) => `${x.idPrefix}_id` === param) ?? r);
    const url = op.path.replace(/\{(\w+)\}/g, (_, p: string) =>
      p === param ? '{{ encodeURIComponent($value) }}' : `{{ encodeURIComponent($parameter["${p}"]) }}`,
    );
    props.push({
      ...resourceLocator(
        param,
        ref === r ? r.title : title(param),
        ref,
        true,
        `The ${ref.title.toLowerCase()} to ${operationLabel(op).toLowerCase()}`,
      ),
      displayOptions: show(r, op),
      routing: { request: { url: `=${url}` } },
    });
  }
  const body = fieldsOf(op.body, resources);
  for (const f of body.filter((x) => x.required || x.kind.kind === 'idOrObject'))
    props.push(
      ...(isUpload(op, f) ? uploadParameters(r, op, f, resources) : fieldParameters(r, op, f, 'body', resources)),
    );
  const optionalBody = body.filter((x) => !x.required && x.kind.kind !== 'idOrObject');
  if (optionalBody.length) {
    props.push(
      collectionOf(
        ADDITIONAL_FIELDS,
        'Additional Fields',
        r,
        op,
        optionalBody.flatMap((f) => bodyOptions(op, f, resources)),
      ),
    );
  }
  const query = fieldsOf(op.query, resources);
  if (op.response === 'list') {
    const limit = query.find((q) => q.name === 'limit');
    const max = limit?.kind.kind === 'number' ? (limit.kind.schema.maximum ?? 100) : 100;
    props.push({
      displayName: 'Return All',
      name: 'returnAll',
      type: 'boolean',
      default: false,
      description: 'Whether to return all results or only up to a given limit',
      displayOptions: show(r, op),
      routing: { send: { paginate: '={{ $value }}' } },
    });
    props.push({
      displayName: 'Limit',
      name: 'limit',
      type: 'number',
      typeOptions: { minValue: 1, maxValue: max },
      default: 50,
      description: 'Max number of results to return',
      displayOptions: show(r, op, { returnAll: [false] }),
      routing: { send: { type: 'query', property: 'limit' }, output: { maxResults: '={{ $value }}' } },
    });
  }
  const filters = query.filter((q) => !(op.response === 'list' && LIST_CONTROL.has(q.name)));
  const requiredQuery = filters.filter((q) => q.required);
  for (const f of requiredQuery) props.push(...fieldParameters(r, op, f, 'query', resources));
  const optionalQuery = filters.filter((q) => !q.required);
  if (optionalQuery.length) {
    const name = op.response === 'list' ? 'filters' : 'queryOptions';
    props.push(
      collectionOf(
        name,
        op.response === 'list' ? 'Filters' : 'Query Options',
        r,
        op,
        optionalQuery.map((f) => asOption(parameter(f, resources, true), 'query')),
      ),
    );
  }
  if (op.idempotent) {
    props.push(
      collectionOf('options', 'Options', r, op, [
        {
          displayName: 'Idempotency Key',
          name: 'idempotencyKey',
          type: 'string',
          default: '',
          description:
            'A unique key: repeating a request with the same key returns the first response instead of creating a duplicate',
          routing: { request: { headers: { 'Idempotency-Key': '={{ $value }}' } } },
        },
      ]),
    );
  }
  return props;
}

function operationOption(r: PackResource, op: PackOperation, runtime: NodeRuntime): INodePropertyOptions {
  const hasPathParam = pathParams(op).length > 0;
  const routing: INodePropertyOptions['routing'] = {};
  // with a path parameter, the URL comes from that parameter's routing
  routing.request = hasPathParam ? { method: op.method } : { method: op.method, url: op.path };
  if (op.body || op.query) routing.send = { preSend: [runtime.shapeRequest] };
  if (op.response === 'list') {
    routing.request.qs = { limit: '={{ $parameter.returnAll ? 100 : $parameter.limit }}' };
    routing.send = {
      ...routing.send,
      paginate: '={{ $parameter.returnAll }}',
    };
    // n8n's generic pagination would take next_url from an expression whose `qs` its types do not
    // allow; the typed paginator follows it in code (as n8n's Okta node pages by cursor)
    routing.operations = { pagination: runtime.paginateList };
  }
  routing.output = {
    postReceive: [
      runtime.raiseApiError,
      ...(op.response === 'list' ? [{ type: 'rootProperty' as const, properties: { property: 'data' } }] : []),
    ],
  };
  return { name: operationLabel(op), value: op.name, action: op.summary, description: op.summary, routing };
}

/** The Resource selector, first of the node's parameters. */
export function resourceProperty(resources: readonly PackResource[]): INodeProperties {
  return {
    displayName: 'Resource',
    name: 'resource',
    type: 'options',
    noDataExpression: true,
    options: resources.map((r) => ({ name: title(r.name), value: r.name, description: r.description })),
    default: resources[0]?.name ?? '',
  };
}

/** One resource's parameters, as n8n's own nodes split them: its Operation selector, then its fields. */
export function resourceProperties(
  r: PackResource,
  resources: readonly PackResource[],
  runtime: NodeRuntime = nodeRuntime(resources),
): { operations: INodeProperties[]; fields: INodeProperties[] } {
  const operation: INodeProperties = {
    displayName: 'Operation',
    name: 'operation',
    type: 'options',
    noDataExpression: true,
    displayOptions: { show: { resource: [r.name] } },
    options: r.operations.map((op) => operationOption(r, op, runtime)),
    default: r.operations[0]?.name ?? '',
  };
  return { operations: [operation], fields: r.operations.flatMap((op) => operationParameters(r, op, resources)) };
}

/** Every parameter of the node: Resource, then per resource its Operation and its operations' fields. */
export function nodeProperties(
  resources: readonly PackResource[],
  runtime: NodeRuntime = nodeRuntime(resources),
): INodeProperties[] {
  return [
    resourceProperty(resources),
    ...resources.flatMap((r) => {
      const { operations, fields } = resourceProperties(r, resources, runtime);
      return [...operations, ...fields];
    }),
  ];
}
