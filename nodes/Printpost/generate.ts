// The n8n node's resources, operations and fields, generated from the catalog: nothing in here
// names a resource or a field. Declarative style: operations carry routing.request, fields carry
// routing.send, lists paginate on next_url and yield one item per object.
import type {
  IDataObject,
  INodeProperties,
  INodePropertyOptions,
  INodePropertyCollection,
  IDisplayOptions,
} from 'n8n-workflow';
import type { JsonSchema, PackOperation, PackResource } from '../common/pack-catalog';
import { listSearchName, nodeRuntime, type NodeRuntime } from './runtime';
import { fieldsOf, listOperation, operationLabel, optionLabel, pathParams, title, type Field } from '../common/schema';

const show = (resource: PackResource, op: PackOperation, extra: IDataObject = {}): IDisplayOptions => ({
  show: { resource: [resource.name], operation: [op.name], ...extra } as IDisplayOptions['show'],
});

/** n8n wants descriptions to end without a dangling space; the catalog's are sentences already. */
const describe = (f: Field) => f.description || title(f.name);

function resourceLocator(
  name: string,
  displayName: string,
  ref: PackResource,
  required: boolean,
  description: string,
): INodeProperties {
  const hasList = !!listOperation(ref);
  const modes: INodeProperties['modes'] = [];
  if (hasList) {
    modes.push({
      displayName: 'From List',
      name: 'list',
      type: 'list',
      placeholder: `Select a ${ref.title.toLowerCase()}...`,
      typeOptions: { searchListMethod: listSearchName(ref), searchable: true },
    });
  }
  modes.push({
    displayName: 'ID',
    name: 'id',
    type: 'string',
    placeholder: `${ref.idPrefix}_d3489cd64c791ab5`,
    validation: [
      {
        type: 'regex',
        properties: {
          regex: ref.idPattern.replace(/^\^|\$$/g, ''),
          errorMessage: `Not a valid ${ref.title.toLowerCase()} ID (${ref.idPrefix}_...)`,
        },
      },
    ],
  });
  return {
    displayName,
    name,
    type: 'resourceLocator',
    default: { mode: hasList ? 'list' : 'id', value: '' },
    required,
    modes,
    description,
  };
}

/** One field as an n8n parameter (without displayOptions and routing). */
function parameter(f: Field, resources: readonly PackResource[], nested = false): INodeProperties {
  const base = {
    displayName: title(f.name),
    name: f.name,
    description: describe(f),
    required: (f.required && !nested) || undefined,
  };
  const k = f.kind;
  const placeholder = typeof f.example === 'string' ? `e.g. ${f.example}` : undefined;
  switch (k.kind) {
    case 'string':
      if (k.ref && !nested) return resourceLocator(f.name, base.displayName, k.ref, f.required, base.description);
      return {
        ...base,
        type: 'string',
        default: typeof f.default === 'string' ? f.default : '',
        ...(placeholder && { placeholder }),
      };
    case 'number': {
      const typeOptions: IDataObject = {};
      if (k.schema.minimum !== undefined) typeOptions.minValue = k.schema.minimum;
      if (k.schema.maximum !== undefined) typeOptions.maxValue = k.schema.maximum;
      if (k.integer) typeOptions.numberPrecision = 0;
      const def = typeof f.default === 'number' ? f.default : (k.schema.minimum ?? 0);
      return { ...base, type: 'number', default: def, typeOptions };
    }
    case 'boolean':
      return { ...base, type: 'boolean', default: typeof f.default === 'boolean' ? f.default : false };
    case 'options':
      return {
        ...base,
        type: 'options',
        options: k.values.map((v) => ({ name: optionLabel(v), value: v })),
        default: (f.default as string | number | undefined) ?? k.values[0],
      };
    case 'multiOptions':
      return {
        ...base,
        type: 'multiOptions',
        options: k.values.map((v) => ({ name: optionLabel(v), value: v })),
        default: Array.isArray(f.default) ? f.default : [],
      };
    case 'list':
      return {
        ...base,
        type: k.item.kind === 'number' ? 'number' : k.item.kind === 'boolean' ? 'boolean' : 'string',
        typeOptions: { multipleValues: true },
        default: [],
      } as INodeProperties;
    case 'record':
      return {
        ...base,
        type: 'fixedCollection',
        typeOptions: { multipleValues: true },
        placeholder: 'Add Key/Value Pair',
        default: {},
        options: [
          {
            displayName: 'Pair',
            name: 'pairs',
            values: [
              { displayName: 'Key', name: 'key', type: 'string', default: '' },
              { displayName: 'Value', name: 'value', type: 'string', default: '' },
            ],
          },
        ],
      };
    case 'object':
      return {
        ...base,
        type: 'collection',
        placeholder: 'Add Field',
        default: {},
        options: fieldsOf(k.schema, resources).map((c) => parameter(c, resources, true)),
      };
    case 'objectList':
      return {
        ...base,
        type: 'fixedCollection',
        typeOptions: { multipleValues: true },
        placeholder: `Add ${title(f.name)}`,
        default: {},
        options: [
          {
            displayName: title(f.name),
            name: 'items',
            values: fieldsOf(k.item, resources).map((c) => parameter(c, resources, true)),
          },
        ],
      };
    case 'idOrObject':
      // handled by fieldParameters (a source selector and two alternatives); inside collections, JSON
      return { ...base, type: 'json', default: '' };
    case 'json':
    default:
      return { ...base, type: 'json', default: '' };
  }
}

const sendAs = (type: 'body' | 'query', property: string) => ({ send: { type, property } });

/** The top-level parameters of one operation field: required ones on their own, the rest go to a collection. */
function fieldParameters(
  r: PackResource,
  op: PackOperation,
  f: Field,
  where: 'body' | 'query',
  resources: readonly PackResource[],
): INodeProperties[] {
  if (f.kind.kind === 'idOrObject') {
    const k = f.kind;
    const modeName = `${f.name}Source`;
    const sources: INodePropertyOptions[] = [];
    if (!f.required) sources.push({ name: 'None', value: 'none', description: `Do not send ${f.name}` });
    sources.push({
      name: k.ref ? `Saved ${k.ref.title}` : 'ID',
      value: 'id',
      description: `Send the ID of a saved ${(k.ref?.title ?? 'object').toLowerCase()}`,
    });
    sources.push({ name: 'Inline', value: 'inline', description: 'Send the object itself' });
    const idParam: INodeProperties = k.ref
      ? resourceLocator(f.name, title(f.name), k.ref, true, describe(f))
      : {
          displayName: title(f.name),
          name: f.name,
          type: 'string',
          default: '',
          required: true,
          description: describe(f),
        };
    const inline = fieldsOf(k.object, resources);
    const required = inline.filter((c) => c.required).map((c) => parameter(c, resources, true));
    const optional = inline.filter((c) => !c.required).map((c) => parameter(c, resources, true));
    return [
      {
        displayName: `${title(f.name)} Source`,
        name: modeName,
        type: 'options',
        noDataExpression: true,
        options: sources,
        default: f.required ? 'id' : 'none',
        description: describe(f),
        displayOptions: show(r, op),
      },
      { ...idParam, displayOptions: show(r, op, { [modeName]: ['id'] }), routing: sendAs(where, f.name) },
      {
        displayName: title(f.name),
        name: f.name,
        type: 'fixedCollection',
        default: {},
        placeholder: `Add ${title(f.name)}`,
        required: true,
        description: describe(f),
        displayOptions: show(r, op, { [modeName]: ['inline'] }),
        options: [
          {
            displayName: title(f.name),
            name: 'values',
            values: [...required.map((p) => ({ ...p, required: true })), ...optional],
          },
        ],
        routing: { send: { type: where, property: f.name, value: '={{ $value.values }}' } },
      },
    ];
  }
  const p = parameter(f, resources);
  return [{ ...p, displayOptions: show(r, op), routing: sendAs(where, f.name) }];
}

function collectionOf(
  name: string,
  displayName: string,
  r: PackResource,
  op: PackOperation,
  children: INodeProperties[],
): INodeProperties {
  return {
    displayName,
    name,
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: show(r, op),
    options: children,
  };
}

/** Parameters inside a collection keep their routing; n8n applies it per option. */
const asOption = (p: INodeProperties, where: 'body' | 'query'): INodeProperties => ({
  ...p,
  required: undefined,
  routing: sendAs(where, p.name),
});

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
    props.push(...fieldParameters(r, op, f, 'body', resources));
  const optionalBody = body.filter((x) => !x.required && x.kind.kind !== 'idOrObject');
  if (optionalBody.length) {
    props.push(
      collectionOf(
        'additionalFields',
        'Additional Fields',
        r,
        op,
        optionalBody.map((f) => asOption(parameter(f, resources), 'body')),
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
    routing.operations = {
      pagination: {
        type: 'generic',
        properties: {
          continue: '={{ !!$response.body?.next_url }}',
          request: {
            url: '={{ $response.body?.next_url ?? $request.url }}',
            qs: '={{ $response.body?.next_url ? {} : $request.qs }}',
          },
        },
      } as unknown as NonNullable<NonNullable<INodePropertyOptions['routing']>['operations']>['pagination'],
    };
  }
  routing.output = {
    postReceive: [
      runtime.raiseApiError,
      ...(op.response === 'list' ? [{ type: 'rootProperty' as const, properties: { property: 'data' } }] : []),
    ],
  };
  return { name: operationLabel(op), value: op.name, action: op.summary, description: op.summary, routing };
}

/** Every parameter of the node: Resource, then per resource its Operation, then per operation its fields. */
export function nodeProperties(
  resources: readonly PackResource[],
  runtime: NodeRuntime = nodeRuntime(resources),
): INodeProperties[] {
  const props: INodeProperties[] = [
    {
      displayName: 'Resource',
      name: 'resource',
      type: 'options',
      noDataExpression: true,
      options: resources.map((r) => ({ name: title(r.name), value: r.name, description: r.description })),
      default: resources[0]?.name ?? '',
    },
  ];
  for (const r of resources) {
    props.push({
      displayName: 'Operation',
      name: 'operation',
      type: 'options',
      noDataExpression: true,
      displayOptions: { show: { resource: [r.name] } },
      options: r.operations.map((op) => operationOption(r, op, runtime)),
      default: r.operations[0]?.name ?? '',
    });
  }
  for (const r of resources) for (const op of r.operations) props.push(...operationParameters(r, op, resources));
  return props;
}

export type { INodePropertyCollection, JsonSchema };
