// What the n8n node runs, as opposed to what it declares: the preSend that shapes a request to the
// schema, the postReceive that raises the spec's errors, and the pickers' list searches. The built
// node's static description refers to these by name.
import type {
  IN8nHttpFullResponse,
  INodeExecutionData,
  IDataObject,
  IExecuteSingleFunctions,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  INodeListSearchResult,
} from 'n8n-workflow';
import type { PackResource } from '../common/pack-catalog';
import { engineError } from './engine-error';
import { coerceObject, listOperation, objectLabel } from '../common/schema';
import { attachBinaryFiles } from './uploads';

export const CREDENTIAL = 'printpostApi';

/** The list search method of a resource's picker. */
export const listSearchName = (r: PackResource) =>
  `search${r.name.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase())}`;

export interface NodeRuntime {
  shapeRequest(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions>;
  raiseApiError(
    this: IExecuteSingleFunctions,
    items: INodeExecutionData[],
    response: IN8nHttpFullResponse,
  ): Promise<INodeExecutionData[]>;
}

/** The node's runtime functions over a catalog: one of each, whatever the operation. */
export function nodeRuntime(resources: readonly PackResource[]): NodeRuntime {
  /**
   * Operation-level preSend: turn n8n shapes (key/value pairs, collections) into what the schema says;
   * with input binary properties for upload fields, send multipart.
   */
  async function shapeRequest(
    this: IExecuteSingleFunctions,
    requestOptions: IHttpRequestOptions,
  ): Promise<IHttpRequestOptions> {
    const resource = resources.find((r) => r.name === this.getNodeParameter('resource'));
    const op = resource?.operations.find((o) => o.name === this.getNodeParameter('operation'));
    if (!op) return requestOptions;
    if (op.body && requestOptions.body && typeof requestOptions.body === 'object') {
      requestOptions.body = coerceObject(
        requestOptions.body as Record<string, unknown>,
        op.body,
        resources,
      ) as IDataObject;
    }
    if (op.query && requestOptions.qs) {
      requestOptions.qs = coerceObject(
        requestOptions.qs as Record<string, unknown>,
        op.query,
        resources,
      ) as IDataObject;
    }
    return attachBinaryFiles.call(this, op, requestOptions);
  }
  return { shapeRequest, raiseApiError };
}

/**
 * Requests run with ignoreHttpStatusErrors, so the spec's error body reaches us: this postReceive
 * raises it as an n8n API error with the spec's message and code (Continue On Fail and the error
 * output then work as with any n8n node).
 */
export async function raiseApiError(
  this: IExecuteSingleFunctions,
  items: INodeExecutionData[],
  response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
  if (response.statusCode < 400) return items;
  throw engineError(this.getNode(), response.statusCode, response.body);
}

type ListSearch = (
  this: ILoadOptionsFunctions,
  filter?: string,
  paginationToken?: string,
) => Promise<INodeListSearchResult>;

/** One list search per listable resource: the pickers of resourceLocator fields. */
export function listSearchMethods(resources: readonly PackResource[]): Record<string, ListSearch> {
  const methods: Record<string, ListSearch> = {};
  for (const r of resources) {
    const list = listOperation(r);
    if (!list) continue;
    methods[listSearchName(r)] = async function (
      this: ILoadOptionsFunctions,
      filter?: string,
      paginationToken?: string,
    ) {
      const credentials = await this.getCredentials<{ baseUrl?: string }>(CREDENTIAL);
      const baseURL = String(credentials.baseUrl ?? '').replace(/\/+$/, '');
      const qs: IDataObject = { limit: 100 };
      if (paginationToken) qs.after = paginationToken;
      const page = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
        method: 'GET',
        baseURL,
        url: list.path,
        qs,
        json: true,
      })) as {
        data?: IDataObject[];
        next_url?: string | null;
      };
      const needle = (filter ?? '').toLowerCase();
      const results = (page.data ?? [])
        .map((o) => ({ name: objectLabel(o), value: String(o.id) }))
        .filter((o) => !needle || o.name.toLowerCase().includes(needle));
      const after = page.next_url ? /[?&]after=([^&]+)/.exec(page.next_url)?.[1] : undefined;
      return { results, paginationToken: after ? decodeURIComponent(after) : undefined };
    };
  }
  return methods;
}
