// What a handler receives: the validated request of one catalog operation.
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

export type Handler = (request: OperationRequest) => Promise<unknown>;
