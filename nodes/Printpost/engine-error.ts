// An engine error answer as an n8n API error: the spec's message and code, the HTTP status, and a hint
// for a 401. Shared by the action node's postReceive and the trigger's webhook calls.
import { NodeApiError, type INode } from 'n8n-workflow';
import { apiError } from '../../credentials/api-error';
import { isDataObject } from './data-object';

export function engineError(node: INode, statusCode: number, body: unknown): NodeApiError {
  const envelope = isDataObject(body) ? body : {};
  const { message, code } = apiError(statusCode, envelope);
  const hint = statusCode === 401 ? ' Check the API key and base URL of the Printpost API credentials.' : '';
  return new NodeApiError(node, envelope, {
    message,
    description: `Printpost error code \`${code}\` (HTTP ${statusCode}).${hint}`,
    httpCode: String(statusCode),
  });
}
