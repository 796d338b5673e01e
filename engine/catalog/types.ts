// The API held as data. Nothing in here imports engine code: the n8n and Zapier packs compile
// this folder into themselves at build time.
import type { Static, TObject, TSchema } from '@sinclair/typebox';
import type { ListFilter, SortColumn } from './list-types';

export type HttpMethod = 'GET' | 'POST' | 'DELETE' | 'PATCH';
export type Mode = 'test' | 'live';

/** What a rule reports. */
export interface RuleViolation {
  message: string;
  /** error code from the spec's table; defaults to `invalid` */
  code?: string;
  status?: number;
}
/**
 * A cross-field rule a schema cannot express. Returns a violation or undefined. `at(field)` is the
 * field's full path where the checked object sits (`to.address_city` inside a mailpiece's `to`).
 */
export type Rule = (body: Record<string, unknown>, at: (field: string) => string) => RuleViolation | undefined;

/** What an operation returns, so the packs know how to shape their output. */
export type ResponseShape = 'object' | 'list' | 'deleted';

/**
 * The names of a path template's parameters, from the template itself: `'tmpl_id' | 'id'` for
 * `/v1/templates/{tmpl_id}/versions/{id}`; any name for a path only known as a string.
 */
export type PathParamNames<P extends string> = string extends P
  ? string
  : P extends `${string}{${infer Name}}${infer Rest}`
    ? Name | PathParamNames<Rest>
    : never;

/**
 * One operation of the API. Its path, body and query schemas are type parameters, so what serves it
 * receives their static types (see engine/http/operation.ts); a resource holds its operations erased.
 */
export interface Operation<
  P extends string = string,
  B extends TObject | undefined = TObject | undefined,
  Q extends TObject | undefined = TObject | undefined,
> {
  /** stable key: `create`, `retrieve`, `list`, `delete`, `cancel`, `update`, `verify`, ... */
  name: string;
  method: HttpMethod;
  /** path under the base URL, `{id}` for the resource id */
  path: P;
  summary: string;
  /** body schema of POST/PATCH operations */
  body?: B;
  /** query parameters of this operation (list filters, `case`, ...) */
  query?: Q;
  /** rules of the whole body; rules of an object schema travel with it (catalog/rules.ts) */
  rules?: readonly Rule[];
  response: ResponseShape;
  /** the response body when it is not the resource's own object (bulk answers, ...) */
  responseSchema?: TObject;
  /** publishable keys may call it (verification family only) */
  publishable?: boolean;
  /** multiple of the account's per-5-seconds rate limit */
  rateLimitFactor?: number;
  /** accepts Idempotency-Key / idempotency_key */
  idempotent?: boolean;
  /**
   * makes mailpieces, so an AI agent's call meets the agent policy (engine/domain/agents): `now` (a
   * piece's create, a campaign's send) or `later` (it makes or changes what a campaign mails, whose
   * runs, sent by anyone or by its schedule, are then held to that policy)
   */
  mails?: 'now' | 'later';
  /** live calls free each month before a payment method is needed (US verification: 300) */
  freeLiveQuota?: number;
  /** accepts multipart file uploads for these body fields */
  files?: string[];
  /** list operations: declared filters, each backed by a column (catalog/list-filters.ts) */
  filters?: ListFilter[];
  /** list operations: the columns `sort_by` may name */
  sorts?: SortColumn[];
}

/** The static type of an operation's body, for code below the HTTP layer that takes it. */
export type BodyOf<O extends Operation> = Static<NonNullable<O['body']>>;

/**
 * A resource; its declaration keeps `S`, its object schema, and `N`, its name, so the objects the store
 * reads by that name get the schema's static type (engine/store/stored.ts).
 */
export interface Resource<S extends TSchema = TObject, N extends string = string> {
  /** plural path segment and catalog key, e.g. `addresses` */
  name: N;
  /** singular human name */
  title: string;
  /** the `object` value of its objects */
  object: string;
  /** id prefix without the underscore */
  idPrefix: string;
  idPattern: string;
  description: string;
  /** JSON schema of the object as returned */
  schema: S;
  operations: Operation[];
  /** webhook event types of this resource (`address.created`, ...) */
  events: string[];
  /** a realistic object, shown as an example by OpenAPI, n8n and Zapier */
  sample: Record<string, unknown>;
  /** mailpiece kinds: what the one mailpiece handler needs to know (catalog/mailpieces) */
  mailpiece?: MailpieceTraits;
  /** fields holding asset store keys, answered as signed links (an insert's artwork: `url`, ...) */
  assetLinks?: readonly string[];
  /** fields only a Service-Version on or after the date may send or see (letters' `size`: 2024-01-01) */
  fieldsSince?: Record<string, string>;
}

/** An artwork field of a mailpiece (`front`, `file`, ...). */
export interface ArtworkSide {
  field: string;
  /** how the docs name it */
  what: string;
  required: boolean;
  /** template ids are reported as `<field>_template_id` (postcards) rather than `template_id` (letters) */
  named: boolean;
}

export interface MailpieceTraits {
  artwork: readonly ArtworkSide[];
  /** rules over the body with `to` and `from` resolved to address objects */
  placementRules: readonly Rule[];
  /** length of the random part of new ids */
  idLength: number;
  sized: boolean;
  takesFsc: boolean;
  /** what a QR code's `pages` names on this kind; false where the kind prints none */
  qrPages: QrPages | false;
  /** text fields the engine prints that take merge variables, like the artwork */
  mergedText: readonly string[];
}

/** Which pages a QR code's `pages` names: the kind's two artwork sides, or page numbers and ranges. */
export type QrPages = { sides: readonly [string, string] } | 'numbers';
