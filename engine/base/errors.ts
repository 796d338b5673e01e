// Errors are values: raised anywhere with a code from the spec's table, rendered in one place (http/middleware.ts).

const STATUS_OF: Record<string, number> = {
  bad_request: 422,
  conflict: 409,
  feature_limit_reached: 403,
  internal_server_error: 500,
  invalid: 422,
  not_deletable: 422,
  not_found: 404,
  request_timeout: 408,
  service_unavailable: 503,
  unrecognized_endpoint: 404,
  unsupported_service_version: 422,
  email_required: 401,
  invalid_api_key: 401,
  publishable_key_not_allowed: 403,
  rate_limit_exceeded: 429,
  unauthorized: 401,
  payment_method_unverified: 401,
};

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** headers the answer carries (Retry-After, ...) */
  readonly headers: Record<string, string>;
  constructor(code: string, message: string, status?: number, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = status ?? STATUS_OF[code] ?? 422;
    this.headers = headers;
  }
  toBody(): { error: { message: string; code: string; status_code: number } } {
    return { error: { message: this.message, code: this.code, status_code: this.status } };
  }
}

export const notFound = (what = 'resource') => new ApiError('not_found', `${what} not found`, 404);

/** An operator's command (`printpost order`, `track`, ...) refused: its message is printed as it is. */
export class CommandRefused extends Error {}
