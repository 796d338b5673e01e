// What serves a catalog operation, typed by the operation itself: `serve(operation, handler)` gives the
// handler the static types of the operation's body and query schemas and the names of its path's
// parameters. The values get those types by being validated against exactly those schemas (the
// pipeline's queryString and validation steps; the checks are TypeBox type guards), so no cast stands
// between the wire and a handler.
import type { Static, TObject } from '@sinclair/typebox';
import type { Operation, PathParamNames, Resource } from '../catalog/types';
import type { Caller } from '../domain/accounts/accounts';
import type { Scope } from '../store/objects';
import type { Services } from '../domain/services';
import type { UploadedFile } from './multipart';
import type { IdempotencyClaim } from '../store/idempotency-keys';
import type { SendConfirmation } from '../domain/agents/confirmations';

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
  /** an AI agent's confirmation token (Printpost-Confirmation) with the body as sent, on operations that mail now */
  confirmation?: SendConfirmation;
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

/** An operation bound to what serves it: built once, when the route table is filled. */
export interface Served {
  operation: Operation;
  /** the handler, given a request whose path, query and body were checked against `operation` */
  run: Handler;
}

/**
 * Binds `handler` to `operation`. Callers see the typed signature; what the pipeline hands `run` was
 * validated against that operation's own schemas, which is what gives its values their static types.
 */
export function serve<const O extends Operation>(operation: O, handler: Handler<O>): Served;
export function serve(operation: Operation, handler: Handler): Served {
  return { operation, run: handler };
}
