// How the MCP server reaches the engine: its own HTTP API, with the caller's key, so every tool meets
// the same authentication, validation, rate limits, idempotency and agent limits as any client.
// Every request says it is an agent's (`Printpost-Agent`), which holds it to the account's agent limits.
import type { HttpMethod, Mode } from '../../catalog/types';

export interface ApiAnswer {
  status: number;
  body: unknown;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, unknown>;
  headers?: Record<string, string>;
}

export interface EngineApi {
  /** the mode of the caller's key: live sends need a preview's confirmation token */
  readonly mode: Mode;
  request(method: HttpMethod, path: string, options?: RequestOptions): Promise<ApiAnswer>;
  /** a signed asset link's bytes (a thumbnail), or undefined when it cannot be read */
  download(url: string): Promise<{ bytes: Buffer; type: string } | undefined>;
}

const AGENT_HEADER = { 'Printpost-Agent': 'mcp' };

/** Query values as the engine reads them: objects and arrays as JSON. */
function queryString(query: Record<string, unknown> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The API at `baseUrl` (`http://127.0.0.1:8000`), called with `authorization` (`Bearer live_…`). */
export function engineApi(baseUrl: string, authorization: string, mode: Mode): EngineApi {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    mode,
    async request(method, path, options = {}) {
      const hasBody = options.body !== undefined && method !== 'GET' && method !== 'DELETE';
      const response = await fetch(`${base}${path}${queryString(options.query)}`, {
        method,
        headers: {
          authorization,
          ...AGENT_HEADER,
          ...(hasBody ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
        body: hasBody ? JSON.stringify(options.body) : undefined,
        signal: AbortSignal.timeout(60_000),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: kept as text for the error message
      }
      return { status: response.status, body };
    },
    async download(url) {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) }).catch(() => undefined);
      if (!response?.ok) return undefined;
      return {
        bytes: Buffer.from(await response.arrayBuffer()),
        type: response.headers.get('content-type') ?? 'image/png',
      };
    },
  };
}
