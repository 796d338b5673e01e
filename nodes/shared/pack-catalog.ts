// The catalog as the packs see it: plain JSON (JSON Schema objects, no TypeBox symbols, no rule
// functions), so it can be frozen into each pack at build time and walked without the engine.
export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PATCH';

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

export interface PackOperation {
  name: string;
  method: HttpMethod;
  path: string;
  summary: string;
  body?: JsonSchema;
  query?: JsonSchema;
  response: 'object' | 'list' | 'deleted';
  publishable?: boolean;
  idempotent?: boolean;
  files?: string[];
}

export interface PackResource {
  name: string;
  title: string;
  object: string;
  idPrefix: string;
  idPattern: string;
  description: string;
  schema: JsonSchema;
  operations: PackOperation[];
  events: string[];
  sample: Record<string, unknown>;
}

const plain = <T>(value: unknown): T => (value === undefined ? undefined : JSON.parse(JSON.stringify(value))) as T;

/** Strip the catalog down to data: what a pack needs, nothing it must not carry. */
/** The shape of the engine's catalog entries this module reads (structurally: no import of engine code). */
interface CatalogResource extends Omit<PackResource, 'schema' | 'operations'> {
  schema: object;
  operations: (Omit<PackOperation, 'body' | 'query'> & { body?: object; query?: object; rules?: unknown })[];
}

export function toPackCatalog(catalog: readonly CatalogResource[]): PackResource[] {
  return catalog.map((r) => ({
    name: r.name,
    title: r.title,
    object: r.object,
    idPrefix: r.idPrefix,
    idPattern: r.idPattern,
    description: r.description,
    schema: plain<JsonSchema>(r.schema),
    operations: r.operations.map((o) => {
      const op: PackOperation = { name: o.name, method: o.method, path: o.path, summary: o.summary, response: o.response };
      if (o.body) op.body = plain<JsonSchema>(o.body);
      if (o.query) op.query = plain<JsonSchema>(o.query);
      if (o.publishable) op.publishable = true;
      if (o.idempotent) op.idempotent = true;
      if (o.files?.length) op.files = [...o.files];
      return op;
    }),
    events: [...r.events],
    sample: plain<Record<string, unknown>>(r.sample),
  }));
}
