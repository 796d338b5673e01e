// What a handler receives: the validated request of one catalog operation.
import type { Static, TObject } from '@sinclair/typebox';
import type { Operation, Resource } from '../catalog/types';
import type { Caller } from '../accounts/accounts';
import type { Scope } from '../store/objects';
import type { Services } from '../services';
import type { UploadedFile } from './multipart';
import type { IdempotencyClaim } from '../store/idempotency-claims';

export interface OperationRequest {
  resource: Resource;
  operation: Operation;
  caller: Caller;
  scope: Scope;
  /** the path's named parameters (`{id}`, `{tmpl_id}`, ...), percent-decoded */
  params: Record<string, string>;
  /** the path's `{id}`, if any: the resource's own object */
  id?: string;
  body: Record<string, unknown>;
  query: Record<string, unknown>;
  files: UploadedFile[];
  /** Service-Version in force for this request */
  version: string;
  /** absolute URL of this path without its query (list links) */
  url: string;
  services: Services;
  /** the request's hold on its Idempotency-Key: a create passes it to the store, which records the answer with the object */
  idempotency?: IdempotencyClaim;
}

/** Serves one catalog operation. `schemas`, when set, are the schemas its body and query were typed from. */
export type Handler = ((request: OperationRequest) => Promise<unknown>) & {
  schemas?: { body?: TObject; query?: TObject };
};

/** A request whose body and query carry the static types of the operation's schemas. */
export type TypedRequest<B extends TObject, Q extends TObject> = Omit<OperationRequest, 'body' | 'query'> & {
  body: Static<B>;
  query: Static<Q>;
};

/**
 * A handler typed by the operation's own schemas: validation has checked the body and query against
 * exactly these (the router refuses to start if they are not the operation's), so the types hold.
 */
export function typed<B extends TObject, Q extends TObject = TObject>(
  schemas: { body?: B; query?: Q },
  serve: (request: TypedRequest<B, Q>) => Promise<unknown>,
): Handler {
  return Object.assign((request: OperationRequest) => serve(request as unknown as TypedRequest<B, Q>), { schemas });
}
