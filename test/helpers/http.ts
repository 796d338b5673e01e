// A small client for tests: real HTTP with Basic auth, JSON or form bodies.
export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface CallOptions {
  key?: string;
  json?: unknown;
  form?: string;
  headers?: Record<string, string>;
}

export function client(baseUrl: string, defaultKey?: string) {
  return async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers };
    const key = options.key ?? defaultKey;
    if (key !== undefined) headers.authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      body = options.form;
    }
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // leave non-JSON bodies as text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };
}
