// What a tool answers: MCP content (text, an image), or the engine's refusal as a tool error the model
// can read and act on (its message, code and status from the spec's error body).
import type { ApiAnswer } from './api';
import { isPlainObject } from '../../base/records';

export interface TextContent {
  type: 'text';
  text: string;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
}
export interface ToolResult {
  [key: string]: unknown;
  content: (TextContent | ImageContent)[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export const answered = (value: unknown, more: ImageContent[] = []): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }, ...more],
  ...(isPlainObject(value) ? { structuredContent: value } : {}),
});

export const failed = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** The spec's error body as one sentence: `rate_limit_exceeded (429): ...`. */
export function refusal(answer: ApiAnswer): ToolResult {
  const body = isPlainObject(answer.body) ? answer.body.error : undefined;
  const error = isPlainObject(body)
    ? {
        code: typeof body.code === 'string' ? body.code : undefined,
        message: typeof body.message === 'string' ? body.message : undefined,
      }
    : undefined;
  return failed(
    error
      ? `${error.code ?? 'error'} (${answer.status}): ${error.message ?? ''}`
      : `HTTP ${answer.status}: ${String(answer.body)}`,
  );
}

export const ok = (answer: ApiAnswer): boolean => answer.status >= 200 && answer.status < 300;
