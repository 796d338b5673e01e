// The Zapier app's authentication: API key, base URL and an optional Service-Version, Basic auth and
// the version header set in one beforeRequest, a test call, a connection label with the mode, and 401s
// mapped to Zapier's authentication error.
import type { Bundle, HttpRequestOptions, HttpResponse, ZObject } from 'zapier-platform-core';
import { apiError } from './api-error';

const DEFAULT_BASE_URL = 'http://127.0.0.1:8000';

export const baseUrl = (bundle: Bundle) => String(bundle.authData?.base_url || DEFAULT_BASE_URL).replace(/\/+$/, '');

/** `test_...`, `test_pub_...` are test mode; `live_...` live. */
const keyMode = (key: unknown) => (String(key ?? '').startsWith('live') ? 'live' : 'test');

export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'api_key',
      label: 'API Key',
      type: 'password' as const,
      required: true,
      helpText:
        'A secret key from your Printpost engine for every action: `test_...` for test mode, `live_...` for live mode. A publishable key (`test_pub_...`, `live_pub_...`) works for US and international verification and US autocomplete only.',
    },
    {
      key: 'base_url',
      label: 'Base URL',
      type: 'string' as const,
      required: true,
      default: DEFAULT_BASE_URL,
      helpText: 'Where your Printpost engine listens, without `/v1`, e.g. `https://printpost.example.com`.',
    },
    {
      key: 'service_version',
      label: 'Service-Version',
      type: 'string' as const,
      required: false,
      placeholder: '2024-01-01',
      helpText:
        "The API version (YYYY-MM-DD) every request asks for, sent as the `Service-Version` header; empty uses the account's own. Some fields need a later one: a letter's `size` (`us_legal`) needs `2024-01-01` or later.",
    },
  ],
  // US autocomplete: allowed to secret and publishable keys alike (a list of addresses would
  // refuse a publishable key with 403), answered without a vendor in test mode, 401 for a bad key.
  test: async (z: ZObject, bundle: Bundle) => {
    const response = await z.request({
      method: 'POST',
      url: `${baseUrl(bundle)}/v1/us_autocompletions`,
      headers: { 'Content-Type': 'application/json' },
      body: { address_prefix: '1' },
    });
    return response.data;
  },
  connectionLabel: (z: ZObject, bundle: Bundle) => {
    const host = baseUrl(bundle).replace(/^https?:\/\//, '');
    return `${keyMode(bundle.authData?.api_key) === 'live' ? 'Live' : 'Test'} mode (${host})`;
  },
};

/** Whether a request goes to the engine (and not, say, to where Zapier keeps a file to upload). */
const toEngine = (url: string | undefined, bundle: Bundle) => {
  const base = baseUrl(bundle);
  return !!url && (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`));
};

/**
 * Basic auth with the key as user name, and the Service-Version when one is set, on requests to the
 * engine only; relative URLs go to the engine.
 */
export const addAuth = (request: HttpRequestOptions, z: ZObject, bundle: Bundle): HttpRequestOptions => {
  const key = String(bundle.authData?.api_key ?? '');
  const version = String(bundle.authData?.service_version ?? '').trim();
  if (request.url && request.url.startsWith('/')) request.url = `${baseUrl(bundle)}${request.url}`;
  if (!toEngine(request.url, bundle)) return request;
  const headers: Record<string, string> = { Accept: 'application/json', ...(request.headers ?? {}) };
  if (key) headers.Authorization = `Basic ${Buffer.from(`${key}:`).toString('base64')}`;
  if (version) headers['Service-Version'] = version;
  request.headers = headers;
  return request;
};

/** Map the engine's error body onto Zapier's errors: 401 is an authentication error. Other hosts' answers pass. */
export const handleErrors = (response: HttpResponse, z: ZObject, bundle: Bundle): HttpResponse => {
  if (response.status < 400 || !toEngine(response.request?.url, bundle)) return response;
  let body: unknown = {};
  try {
    body = typeof response.data === 'object' && response.data ? response.data : JSON.parse(response.content);
  } catch {
    body = {};
  }
  const { message, code } = apiError(response.status, body);
  if (response.status === 401) {
    throw new z.errors.Error(
      `Authentication failed: ${message}. Check the API key and base URL.`,
      'AuthenticationError',
      401,
    );
  }
  if ('skipThrowForStatus' in response && response.skipThrowForStatus) return response;
  throw new z.errors.Error(message, code, response.status);
};
