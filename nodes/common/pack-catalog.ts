// The catalog as the packs see it: plain JSON (JSON Schema objects, no TypeBox symbols, no rule
// functions), so it can be frozen into each pack at build time and walked without the engine.
import type { Operation, Resource } from '../../engine/catalog/types';
// toPackCatalog runs in the source tree only (catalog-data.ts); the packs carry its frozen result
import { enabledForTest, simulatedInTest } from '../../engine/catalog/event-types';

export type { HttpMethod } from '../../engine/catalog/types';

/** A JSON Schema node, as TypeBox emits it (anyOf, const, type, properties, patternProperties...). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  examples?: unknown[];
  default?: unknown;
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  patternProperties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  maxProperties?: number;
}

/** A catalog operation as data: schemas as plain JSON Schema, no rule functions. */
export type PackOperation = Omit<
  Operation,
  'body' | 'query' | 'rules' | 'rateLimitFactor' | 'freeLiveQuota' | 'responseSchema'
> & { body?: JsonSchema; query?: JsonSchema; responseSchema?: JsonSchema };

/** A catalog resource as data. */
export type PackResource = Omit<Resource, 'schema' | 'operations'> & {
  schema: JsonSchema;
  operations: PackOperation[];
  /** those of `events` that also happen in test mode (the triggers say which happen in live mode only) */
  testEvents: string[];
  /** those of `events` a test piece gets only through `simulate` (every tracking event, a rejection) */
  simulatedEvents: string[];
};

const plain = <T>(value: unknown): T => (value === undefined ? undefined : JSON.parse(JSON.stringify(value))) as T;

/** Strip the catalog down to data: what a pack needs, nothing it must not carry. */
export function toPackCatalog(catalog: readonly Resource[]): PackResource[] {
  return catalog.map((r) => ({
    name: r.name,
    title: r.title,
    object: r.object,
    idPrefix: r.idPrefix,
    idPattern: r.idPattern,
    description: r.description,
    schema: plain<JsonSchema>(r.schema),
    operations: r.operations.map((o) => {
      const op: PackOperation = {
        name: o.name,
        method: o.method,
        path: o.path,
        summary: o.summary,
        response: o.response,
      };
      if (o.body) op.body = plain<JsonSchema>(o.body);
      if (o.query) op.query = plain<JsonSchema>(o.query);
      if (o.responseSchema) op.responseSchema = plain<JsonSchema>(o.responseSchema);
      if (o.publishable) op.publishable = true;
      if (o.idempotent) op.idempotent = true;
      if (o.files?.length) op.files = [...o.files];
      return op;
    }),
    events: [...r.events],
    testEvents: r.events.filter(enabledForTest),
    simulatedEvents: r.events.filter(simulatedInTest),
    sample: plain<Record<string, unknown>>(r.sample),
  }));
}
