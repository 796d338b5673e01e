// The OpenAPI 3.1 document, generated from the catalog (TypeBox schemas are JSON Schema already).
import { Type, type TSchema } from '@sinclair/typebox';
import { catalog, idPatternFor, pathParameterNames, prefixOfParameter } from '../catalog';
import { deletedResponse } from '../catalog/fields';
import type { Operation, Resource } from '../catalog/types';

type Json = Record<string, unknown>;

const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

const errorSchema = Type.Object({
  error: Type.Object({
    message: Type.String({ description: 'Human-readable; may change.' }),
    code: Type.String({ description: 'Machine-keyable code from the error table.' }),
    status_code: Type.Integer({ description: 'The HTTP status.' }),
  }),
});

function listSchema(resource: Resource): Json {
  return {
    type: 'object',
    required: ['object', 'data', 'count', 'next_url', 'previous_url'],
    properties: {
      object: { const: 'list' },
      data: { type: 'array', items: { $ref: `#/components/schemas/${resource.object}` } },
      count: { type: 'integer' },
      next_url: { type: ['string', 'null'] },
      previous_url: { type: ['string', 'null'] },
      total_count: { type: 'integer' },
    },
  };
}

function responseSchema(resource: Resource, operation: Operation): Json {
  if (operation.responseSchema) return plain(operation.responseSchema);
  if (operation.response === 'list') return listSchema(resource);
  if (operation.response === 'deleted') return plain(deletedResponse(resource.idPrefix));
  return { $ref: `#/components/schemas/${resource.object}` };
}

function queryParameters(operation: Operation): Json[] {
  const params: Json[] = [];
  for (const [name, schema] of Object.entries(operation.query?.properties ?? {})) {
    const json = plain(schema);
    const isObject = json.type === 'object' || json.patternProperties !== undefined;
    params.push({
      name,
      in: 'query',
      required: false,
      description: json.description,
      schema: json,
      ...(isObject ? { style: 'deepObject', explode: true } : {}),
    });
  }
  if (operation.idempotent)
    params.push({
      name: 'idempotency_key',
      in: 'query',
      required: false,
      schema: { type: 'string', maxLength: 256 },
      description: 'Alternative to the Idempotency-Key header.',
    });
  return params;
}

function operationObject(resource: Resource, operation: Operation): Json {
  const parameters = [...queryParameters(operation)];
  const pathParameters = pathParameterNames(operation.path).map((name) => {
    const prefix = prefixOfParameter(name);
    const pattern = prefix ? idPatternFor(prefix) : resource.idPattern;
    return { name, in: 'path', required: true, schema: { type: 'string', pattern } };
  });
  parameters.unshift(...pathParameters);
  if (operation.idempotent)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', maxLength: 256 },
    });
  const error = {
    description: 'Error',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/error' } } },
  };
  const doc: Json = {
    operationId: `${resource.name}_${operation.name}`,
    summary: operation.summary,
    tags: [resource.title],
    parameters,
    responses: {
      200: {
        description: 'Success',
        content: {
          'application/json': {
            schema: responseSchema(resource, operation),
            example: operation.response === 'object' && !operation.responseSchema ? resource.sample : undefined,
          },
        },
      },
      401: error,
      403: error,
      404: error,
      422: error,
      429: error,
    },
  };
  if (operation.publishable) doc.description = 'Publishable keys may call this operation.';
  if (operation.body) {
    const body = plain(operation.body);
    doc.requestBody = {
      required: true,
      content: {
        'application/json': { schema: body },
        'application/x-www-form-urlencoded': { schema: body },
        'multipart/form-data': { schema: body },
      },
    };
  }
  return doc;
}

export function openApiDocument(serverUrl = 'http://127.0.0.1:8000'): Json {
  const paths: Record<string, Json> = {};
  const schemas: Record<string, Json> = { error: plain(errorSchema) };
  for (const resource of catalog) {
    schemas[resource.object] = { ...plain(resource.schema), examples: [resource.sample] };
    for (const operation of resource.operations) {
      paths[operation.path] ??= {};
      paths[operation.path][operation.method.toLowerCase()] = operationObject(resource, operation);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'printpost',
      version: '1.0.0',
      description: 'Print-and-mail and address-verification API.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: serverUrl }],
    security: [{ basicAuth: [] }],
    tags: catalog.map((r) => ({ name: r.title, description: r.description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'API key as the user name, empty password.' },
      },
    },
  };
}
