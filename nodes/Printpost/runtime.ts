// What the n8n node runs, as opposed to what it declares: the preSend that shapes a request to the
// schema, the postReceive that raises the spec's errors, the lists' paginator and the pickers' list
// searches. The built node's static description refers to these by name.
import type {
  DeclarativeRestApiSettings,
  IExecutePaginationFunctions,
  IN8nHttpFullResponse,
  INodeExecutionData,
  IDataObject,
  IExecuteSingleFunctions,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  INodeListSearchResult,
} from 'n8n-workflow';
import type { PackResource } from '../common/pack-catalog';
import { engineError, engineErrorItem } from './engine-error';
import { coerceObject, listOperation, objectLabel } from '../common/schema';
import { attachBinaryFiles } from './uploads';
import { dataObjectOr, isDataObject } from './data-object';

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
  paginateList(
    this: IExecutePaginationFunctions,
    requestData: DeclarativeRestApiSettings.ResultOptions,
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
    if (op.body && isDataObject(requestOptions.body))
      requestOptions.body = coerceObject(requestOptions.body, op.body, resources);
    if (op.query && requestOptions.qs)
      requestOptions.qs = dataObjectOr(coerceObject(requestOptions.qs, op.query, resources));
    return attachBinaryFiles.call(this, op, requestOptions);
  }
  return { shapeRequest, raiseApiError, paginateList };
}

/**
 * Requests run with ignoreHttpStatusErrors, so the spec's error body reaches us: this postReceive
 * raises it as an n8n API error with the spec's message and code; under Continue On Fail (or the error
 * output) it answers an item of the spec's error body instead, which n8n routes as a failed item.
 */
export async function raiseApiError(
  this: IExecuteSingleFunctions,
  items: INodeExecutionData[],
  response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
  if (response.statusCode < 400) return items;
  // n8n would keep only the message of a thrown error on the item: the code and status are kept here
  if (this.continueOnFail()) return [engineErrorItem(response.statusCode, response.body)];
  throw engineError(this.getNode(), response.statusCode, response.body);
}

/** A page of a list as the API answers it. */
interface ListPage {
  data: IDataObject[];
  next_url?: string | null;
}

const isListPage = (body: unknown): body is ListPage =>
  isDataObject(body) && Array.isArray(body.data) && body.data.every(isDataObject);

/** The status and body of a full response (`returnFullResponse`), whatever else it carries. */
function statusAndBody(response: unknown): { statusCode: number; body: unknown } {
  if (isDataObject(response) && typeof response.statusCode === 'number')
    return { statusCode: response.statusCode, body: response.body };
  return { statusCode: 0, body: response };
}

/**
 * Return All: the list's pages in turn, each one's `next_url` (which carries the query and the cursor)
 * asked after it, one item per object. n8n runs it in place of the operation's postReceive, so the
 * spec's errors are raised here as there.
 */
export async function paginateList(
  this: IExecutePaginationFunctions,
  requestData: DeclarativeRestApiSettings.ResultOptions,
): Promise<INodeExecutionData[]> {
  const items: INodeExecutionData[] = [];
  // the declarative settings allow an expression where a request takes a value; n8n resolved them
  const { url = '', skipSslCertificateValidation: skipSsl, ...rest } = requestData.options;
  let options: IHttpRequestOptions = {
    ...rest,
    url,
    ...(skipSsl !== undefined && { skipSslCertificateValidation: skipSsl === true || skipSsl === 'true' }),
    returnFullResponse: true,
  };
  for (;;) {
    const response: unknown = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, options);
    const { statusCode, body } = statusAndBody(response);
    if (statusCode >= 400 || !isListPage(body)) {
      if (this.continueOnFail()) return [engineErrorItem(statusCode, body)];
      throw engineError(this.getNode(), statusCode, body);
    }
    items.push(...body.data.map((json) => ({ json })));
    if (!body.next_url) return items;
    options = { ...options, url: body.next_url, qs: {} };
  }
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
      const answer: unknown = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
        method: 'GET',
        baseURL,
        url: list.path,
        qs,
        json: true,
      });
      const page: Partial<ListPage> = isListPage(answer) ? answer : {};
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
