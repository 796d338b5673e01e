// An engine error answer as n8n sees it: an API error whose message and description both carry the
// engine's own message and code (with the HTTP status, and a hint for a 401), shared by the action
// node's postReceive and paginator and the trigger's webhook calls (whose activation errors n8n shows
// by their description); and, under Continue On Fail, an item whose json is the spec's error body.
import { NodeApiError, type INode, type INodeExecutionData } from 'n8n-workflow';
import { apiError } from '../../credentials/api-error';
import { isDataObject } from './data-object';

export function engineError(node: INode, statusCode: number, body: unknown): NodeApiError {
  const envelope = isDataObject(body) ? body : {};
  const { message, code } = apiError(statusCode, envelope);
  const hint = statusCode === 401 ? ' Check the API key and base URL of the Printpost API credentials.' : '';
  const shown = `${message} (Printpost error code ${code}, HTTP ${statusCode})`;
  const description = `${shown}.${hint}`;
  const error = new NodeApiError(node, envelope, { message: shown, description, httpCode: String(statusCode) });
  // n8n swaps a message naming a network error code (ENOTFOUND, EACCES, ...) for a generic sentence of
  // its own: the engine's words are what the user needs, so they are set again
  error.message = shown;
  error.description = description;
  return error;
}

/** The item a failed request leaves under Continue On Fail: the spec's error body, code and status kept. */
export function engineErrorItem(statusCode: number, body: unknown): INodeExecutionData {
  const { message, code } = apiError(statusCode, body);
  return { json: { error: { message, code, status_code: statusCode } } };
}
