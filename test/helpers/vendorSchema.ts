// Validates printpost responses against the vendor's own OpenAPI 3.0.3 document.
//
//   vendorResponseErrors('GET', '/v1/addresses?limit=2', 200, body) -> [] when the body conforms.
//
// The document is the schema-only extract in test/fixtures (see its README).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import {
  collectRefs,
  convertInlined,
  convertSchema,
  deref,
  isObject,
  keepRefs,
  resolvePointer,
  type JsonObject,
  type JsonValue,
} from './vendorSchemaConvert';

export type { JsonObject, JsonValue } from './vendorSchemaConvert';

const FILE_NAME = 'vendor-openapi.schema.json';

/**
 * The vendor's `signed_link` pattern fits no link at all, its own documented examples included (it asks
 * for a `'` or `_signature` right after the id, and for `version=…&` with no `?` before it), and it
 * names the vendor's host. What it means is the shape its SDK's models check (folder, id, file,
 * `?version=…&expires=…&signature=…`); that shape stands in for it, on any origin and path prefix (a
 * self-hosted engine serves its files itself), with snap packs' folder and 26-character `ord_` ids.
 */
export const SIGNED_LINK_PATTERN =
  '^https?://[^/?#]+(/[^?#]*)?/(letters|postcards|bank-accounts|checks|self-mailers|snap-packs|cards|order-creatives)/' +
  '([a-z]{3,4}_[a-z0-9]{15,16}|[a-z]{3}_[a-z0-9]{26}(_[a-z]{4}_[a-z0-9]{25,26})?)(_signature|_raw)?' +
  '(\\.pdf|_thumb_[a-z]+_[0-9]+\\.png|\\.png)\\?(version=[a-z0-9-]*&)?expires=[0-9]{10}&signature=[a-zA-Z0-9_-]+$';
const VENDOR_ID = 'vendor';
const SCHEMAS_PREFIX = '#/components/schemas/';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

interface PathTemplate {
  template: string;
  segments: string[];
  literals: number;
}

interface VendorContext {
  doc: JsonObject;
  ajv: Ajv;
  basePath: string;
  templates: PathTemplate[];
  validators: Map<string, ValidateFunction>;
}

let context: VendorContext | undefined;

/** The schema-only extract of the vendor's document kept in the repository (scripts/extract-vendor-schema.ts). */
function vendorDocumentPath(): string {
  return path.resolve(__dirname, '..', 'fixtures', FILE_NAME);
}

/** The parsed (unconverted) vendor document, loaded once per process. */
export function vendorDocument(): JsonObject {
  return load().doc;
}

function load(): VendorContext {
  if (context) return context;
  const doc: unknown = JSON.parse(readFileSync(vendorDocumentPath(), 'utf8'));
  if (!isObject(doc) || !isObject(doc.paths)) throw new Error('vendor OpenAPI document has no paths');
  const signedLink = resolvePointer(doc, `${SCHEMAS_PREFIX}signed_link`);
  if (isObject(signedLink)) signedLink.pattern = SIGNED_LINK_PATTERN;

  const ajv = new Ajv({ strict: false, allErrors: true, verbose: true, validateSchema: false, discriminator: false });
  addFormats(ajv);
  const components = isObject(doc.components) ? doc.components : {};
  const rawSchemas = isObject(components.schemas) ? components.schemas : {};
  const schemas: JsonObject = {};
  // Inside the registered document, local refs (#/components/schemas/x) resolve against it as-is.
  for (const [name, schema] of Object.entries(rawSchemas)) schemas[name] = convertSchema(schema, keepRefs());
  ajv.addSchema({ $id: VENDOR_ID, components: { schemas } });

  const servers = Array.isArray(doc.servers) ? doc.servers : [];
  const firstServer = servers[0];
  const serverUrl = isObject(firstServer) && typeof firstServer.url === 'string' ? firstServer.url : '';
  const basePath = serverUrl === '' ? '' : new URL(serverUrl, 'http://localhost').pathname.replace(/\/$/, '');

  const templates = Object.keys(doc.paths)
    .filter((t) => t.startsWith('/'))
    .map((template) => {
      const segments = template.split('/');
      return { template, segments, literals: segments.filter((s) => !isParam(s)).length };
    })
    .sort((a, b) => b.literals - a.literals);

  context = { doc, ajv, basePath, templates, validators: new Map() };
  return context;
}

function isParam(segment: string): boolean {
  return /^\{[^}]+\}$/.test(segment);
}

/**
 * Maps a concrete request path (`/v1/addresses/adr_123?x=1`, a full URL, or a template such as
 * `/addresses/{adr_id}`) to the document's path template. Literal segments win over parameters.
 */
export function matchVendorPath(requestPath: string, method?: string): string | undefined {
  const ctx = load();
  let p = requestPath.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, '').split(/[?#]/)[0] ?? '';
  if (ctx.basePath !== '' && (p === ctx.basePath || p.startsWith(`${ctx.basePath}/`))) {
    p = p.slice(ctx.basePath.length);
  }
  if (p.length > 1) p = p.replace(/\/+$/, '');
  const segments = p.split('/');
  const matches = ctx.templates.filter(
    (t) =>
      t.segments.length === segments.length &&
      t.segments.every((s, i) => s === segments[i] || (isParam(s) && segments[i] !== '')),
  );
  const verb = method?.toLowerCase();
  const withMethod = verb ? matches.find((t) => isObject(operation(ctx, t.template, verb))) : undefined;
  return (withMethod ?? matches[0])?.template;
}

function operation(ctx: VendorContext, template: string, verb: string): JsonValue | undefined {
  const paths = ctx.doc.paths as JsonObject;
  const item = deref(ctx.doc, paths[template]);
  return isObject(item) && HTTP_METHODS.has(verb) ? deref(ctx.doc, item[verb]) : undefined;
}

/** Picks the schema of a content map: application/json first, then any JSON-ish type, then the first. */
function contentSchema(ctx: VendorContext, content: JsonValue | undefined): JsonValue | undefined {
  const map = deref(ctx.doc, content);
  if (!isObject(map)) return undefined;
  const types = Object.keys(map);
  const type = types.find((t) => t === 'application/json') ?? types.find((t) => /json/i.test(t)) ?? types[0];
  if (type === undefined) return undefined;
  const media = deref(ctx.doc, map[type]);
  return isObject(media) ? media.schema : undefined;
}

type Lookup = { key: string; schema: JsonValue | undefined } | { error: string };

function lookupResponse(ctx: VendorContext, method: string, requestPath: string, status: number): Lookup {
  const verb = method.toLowerCase();
  const template = matchVendorPath(requestPath, verb);
  if (!template) return { error: `no vendor path template matches ${method} ${requestPath}` };
  const op = operation(ctx, template, verb);
  if (!isObject(op)) return { error: `vendor path ${template} has no ${method.toUpperCase()} operation` };
  const responses = deref(ctx.doc, op.responses);
  if (!isObject(responses)) return { error: `${method.toUpperCase()} ${template} declares no responses` };
  const keys = [String(status), `${String(status).charAt(0)}XX`, `${String(status).charAt(0)}xx`, 'default'];
  const key = keys.find((k) => k in responses);
  if (key === undefined) {
    return { error: `${method.toUpperCase()} ${template} declares no response for status ${status}` };
  }
  const response = deref(ctx.doc, responses[key]);
  const schema = isObject(response) ? contentSchema(ctx, response.content) : undefined;
  return { key: `res ${verb} ${template} ${key}`, schema };
}

function compile(ctx: VendorContext, key: string, schema: JsonValue): ValidateFunction {
  const cached = ctx.validators.get(key);
  if (cached) return cached;
  // Inlined so error schemaPaths start at the response root; cycles fall back to the registered doc.
  const converted = convertInlined(ctx.doc, schema, VENDOR_ID);
  const validate = ctx.ajv.compile(isObject(converted) ? converted : { not: {} });
  ctx.validators.set(key, validate);
  return validate;
}

function runValidation(ctx: VendorContext, key: string, schema: JsonValue, body: unknown): string[] {
  let validate: ValidateFunction;
  try {
    validate = compile(ctx, key, schema);
  } catch (err) {
    return [`vendor schema for ${key} could not be compiled: ${(err as Error).message}`];
  }
  if (validate(body)) return [];
  return [...new Set((validate.errors ?? []).map((e) => formatError(e, validate.schema)))];
}

/** `<schema name>#/<path inside it>` for an ajv schemaPath, using the `$comment`s left by inlining. */
function describeSchemaPath(schemaPath: string, root: unknown): string {
  let node: unknown = root;
  let label = isObject(root) && typeof root.$comment === 'string' ? root.$comment : '';
  let rest: string[] = [];
  for (const raw of schemaPath
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = Array.isArray(node) ? node[Number(seg)] : isObject(node) ? node[seg] : undefined;
    rest.push(raw);
    if (isObject(node) && typeof node.$comment === 'string') {
      label = node.$comment;
      rest = [];
    }
  }
  return `${label}#/${rest.join('/')}`;
}

const SHOW_VALUE = new Set(['pattern', 'enum', 'format', 'type', 'const', 'minLength', 'maxLength']);

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function formatError(error: ErrorObject, root: unknown): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'pattern') message = `must match pattern "${clip(String(params.pattern), 70)}"`;
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    const allowed = params.allowedValues.map((v) => JSON.stringify(v));
    message += `: ${allowed.slice(0, 8).join(', ')}${allowed.length > 8 ? `, … (${allowed.length} total)` : ''}`;
  } else if (error.keyword === 'additionalProperties') {
    message += `: ${String(params.additionalProperty)}`;
  }
  if (SHOW_VALUE.has(error.keyword)) message += ` (got ${clip(JSON.stringify(error.data) ?? 'undefined', 60)})`;
  return `${where} ${message} [${describeSchemaPath(error.schemaPath, root)}]`;
}

/**
 * Validates a response body against the vendor document. `path` is a concrete request path
 * (with or without the `/v1` server prefix and query string). Returns readable errors
 * (`<instance path> <message> [<schema path>]`); an empty array means the body conforms.
 */
export function vendorResponseErrors(method: string, path: string, status: number, body: unknown): string[] {
  const ctx = load();
  const found = lookupResponse(ctx, method, path, status);
  if ('error' in found) return [found.error];
  if (found.schema === undefined) {
    const empty = body === undefined || body === null || body === '';
    return empty ? [] : [`${found.key} declares no response body, but one was returned`];
  }
  return runValidation(ctx, found.key, found.schema, body);
}

/**
 * The converted (ajv-ready, draft-07) request-body schema of an operation, self-contained:
 * every referenced component schema is copied under `components.schemas`. `undefined` when
 * the operation has no request body. `pathTemplate` may also be a concrete path.
 */
export function vendorRequestSchema(method: string, pathTemplate: string): JsonObject | undefined {
  const ctx = load();
  const template = matchVendorPath(pathTemplate, method);
  const op = template ? operation(ctx, template, method.toLowerCase()) : undefined;
  if (!isObject(op)) return undefined;
  const body = deref(ctx.doc, op.requestBody);
  const schema = isObject(body) ? contentSchema(ctx, body.content) : undefined;
  if (schema === undefined) return undefined;
  const root = convertSchema(schema, keepRefs());
  const wrapped: JsonObject = isObject(root) ? { ...root } : { allOf: [root] };
  const schemas: JsonObject = {};
  const pending = [...collectRefs(schema)];
  for (let ref = pending.pop(); ref !== undefined; ref = pending.pop()) {
    if (!ref.startsWith(SCHEMAS_PREFIX)) continue;
    const name = ref.slice(SCHEMAS_PREFIX.length);
    if (name in schemas) continue;
    const raw = resolvePointer(ctx.doc, ref) ?? {};
    schemas[name] = convertSchema(raw, keepRefs());
    pending.push(...collectRefs(raw));
  }
  wrapped.components = { schemas };
  return wrapped;
}

/** Validates a request body against the operation's request schema (empty array when valid). */
export function vendorRequestErrors(method: string, path: string, body: unknown): string[] {
  const ctx = load();
  const template = matchVendorPath(path, method);
  const op = template ? operation(ctx, template, method.toLowerCase()) : undefined;
  if (!template || !isObject(op)) return [`no vendor operation matches ${method} ${path}`];
  const requestBody = deref(ctx.doc, op.requestBody);
  const schema = isObject(requestBody) ? contentSchema(ctx, requestBody.content) : undefined;
  if (schema === undefined) return [`${method.toUpperCase()} ${template} declares no request body`];
  return runValidation(ctx, `req ${method.toLowerCase()} ${template}`, schema, body);
}
