// What serves a catalog operation, typed by the operation itself: `serve(operation, handler)` gives the
// handler the static types of the operation's body and query schemas and the names of its path's
// parameters. The values get those types by being validated against exactly those schemas here (the
// checks are TypeBox type guards), so no cast stands between the wire and a handler.
import type { Static, TObject } from '@sinclair/typebox';
import type { Operation, PathParamNames, Resource } from '../catalog/types';
import { pathParams } from '../catalog/paths';
import type { Caller } from '../domain/accounts/accounts';
import type { Scope } from '../store/objects';
import type { Services } from '../domain/services';
import type { UploadedFile } from './multipart';
import type { IdempotencyClaim } from '../store/idempotency-keys';
import { validate } from '../domain/validation/validate';

/** The static type of an operation's body or query schema; an empty record where it has none. */
export type StaticOf<S> = [S] extends [never] ? Record<string, never> : S extends TObject ? Static<S> : never;

/** What every request carries besides its own body, query and path. */
export interface RequestContext {
  resource: Resource;
  caller: Caller;
  scope: Scope;
  files: UploadedFile[];
  /** Service-Version in force for this request */
  version: string;
  /** absolute URL of this path without its query (list links) */
  url: string;
  services: Services;
  /** the request's hold on its Idempotency-Key: a create passes it to the store, which records the answer with the object */
  idempotency?: IdempotencyClaim;
}

/** What a handler of `O` receives. */
export interface OperationRequest<O extends Operation = Operation> extends RequestContext {
  operation: O;
  /** the path's named parameters (`{id}`, `{tmpl_id}`, ...), percent-decoded */
  params: Record<PathParamNames<O['path']>, string>;
  body: StaticOf<NonNullable<O['body']>>;
  query: StaticOf<NonNullable<O['query']>>;
}

export type Handler<O extends Operation = Operation> = (request: OperationRequest<O>) => Promise<unknown>;

/** A request on its way: its path bound, then its query validated, then its body; then it runs. */
export interface BoundPath {
  query(raw: Record<string, unknown>): BoundQuery;
}
export interface BoundQuery {
  body(raw: Record<string, unknown>): (context: RequestContext) => Promise<unknown>;
}

/** An operation and what serves it, as the router registers it. */
export interface Served {
  operation: Operation;
  bind(params: Record<string, string>): BoundPath;
}

/**
 * Binds `handler` to `operation`. Callers see the typed signature; the body below is written once for
 * any operation: what it hands the handler was validated against that operation's own schemas.
 */
export function serve<const O extends Operation>(operation: O, handler: Handler<O>): Served;
export function serve(operation: Operation, handler: Handler): Served {
  return {
    operation,
    bind: (rawParams) => {
      const params = pathParams(operation.path, rawParams);
      return {
        query: (rawQuery) => {
          const query = operation.query ? validate(operation.query, rawQuery) : {};
          return {
            body: (rawBody) => {
              const body = operation.body ? validate(operation.body, rawBody, operation.rules) : {};
              // written out, not spread: one object shape for every request (the spread cost ~7 µs)
              return (context) =>
                handler({
                  resource: context.resource,
                  caller: context.caller,
                  scope: context.scope,
                  files: context.files,
                  version: context.version,
                  url: context.url,
                  services: context.services,
                  idempotency: context.idempotency,
                  operation,
                  params,
                  query,
                  body,
                });
            },
          };
        },
      };
    },
  };
}
