// The tools an MCP server offers, from the catalog (engine/catalog/agent-tools.ts): which are on
// (the defaults, changed by MCP_TOOLS), and each one's input schema, derived from its operation's
// TypeBox schemas (JSON Schema already): path parameters, query and body as one object.
import type { TSchema } from '@sinclair/typebox';
import { AGENT_TOOLS, type AgentTool } from '../../catalog/agent-tools';
import { catalog, findResource, type Operation, type Resource } from '../../catalog';
import { isPlainObject } from '../../base/records';

export type JsonSchema = { type: 'object'; properties?: Record<string, unknown>; [key: string]: unknown };

/** The tools on: the defaults, with MCP_TOOLS's `+name` (or `name`) added and `-name` taken away. */
export function enabledTools(asked: ReadonlySet<string>): AgentTool[] {
  const on = new Set(AGENT_TOOLS.filter((t) => t.onByDefault).map((t) => t.name));
  for (const entry of asked) {
    // the names were checked when the configuration was read (engine/platform/config.ts)
    const name = entry.replace(/^[+-]/, '');
    if (entry.startsWith('-')) on.delete(name);
    else on.add(name);
  }
  return AGENT_TOOLS.filter((t) => on.has(t.name));
}

export function resourceOf(tool: AgentTool): Resource {
  const resource = findResource(tool.resource);
  if (!resource) throw new Error(`agent tool ${tool.name} names no resource ${tool.resource}`);
  return resource;
}

export function operationOf(tool: AgentTool, resource = resourceOf(tool)): Operation {
  const operation = resource.operations.find((o) => o.name === tool.operation);
  if (!operation) throw new Error(`agent tool ${tool.name} names no operation ${tool.resource}.${tool.operation}`);
  return operation;
}

/** The mailpiece kinds and their id prefixes, for the tools that take any kind. */
export const MAILPIECE_KINDS = catalog.filter((r) => r.mailpiece);

/** A TypeBox schema as plain JSON Schema (its symbols and functions left behind). */
const plain = (schema: TSchema): Record<string, unknown> => {
  const parsed: unknown = JSON.parse(JSON.stringify(schema));
  return isPlainObject(parsed) ? parsed : {};
};

const propertiesOf = (schema: TSchema | undefined): Record<string, unknown> => {
  const properties = schema ? plain(schema).properties : undefined;
  return isPlainObject(properties) ? properties : {};
};

const requiredOf = (schema: TSchema | undefined): string[] => {
  const required = schema ? plain(schema).required : undefined;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
};

const pathNames = (path: string) => [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

export function inputSchema(tool: AgentTool): JsonSchema {
  if (tool.flow === 'piece') return pieceSchema(tool);
  const resource = resourceOf(tool);
  const operation = operationOf(tool, resource);
  const params = Object.fromEntries(
    pathNames(operation.path).map((name) => [name, { type: 'string', description: `${resource.title} id` }]),
  );
  const properties: Record<string, unknown> = {
    ...params,
    ...propertiesOf(operation.query),
    ...propertiesOf(operation.body),
  };
  if (tool.flow === 'send')
    properties.confirmation_token = {
      type: 'string',
      description: `The confirmation_token of the preview of exactly these arguments (needed with a live key).`,
    };
  const required = [...Object.keys(params), ...requiredOf(operation.body)];
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

function pieceSchema(tool: AgentTool): JsonSchema {
  const id = {
    type: 'string',
    description: `Mailpiece id (${MAILPIECE_KINDS.map((k) => `${k.idPrefix}_`).join(', ')}...)`,
  };
  if (tool.operation !== 'list') return { type: 'object', properties: { id }, required: ['id'] };
  return {
    type: 'object',
    properties: {
      kind: { type: 'string', enum: MAILPIECE_KINDS.map((k) => k.name), description: 'Which kind to list' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
      before: { type: 'string', description: 'Cursor of the previous page' },
      after: { type: 'string', description: 'Cursor of the next page' },
    },
    required: ['kind'],
  };
}

/** The mailpiece kind an id belongs to, by its prefix. */
export const kindOfId = (id: string): Resource | undefined =>
  MAILPIECE_KINDS.find((k) => id.startsWith(`${k.idPrefix}_`));
