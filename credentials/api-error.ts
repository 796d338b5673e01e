// The engine's error envelope, as both packs read it from a failed response.

export interface ErrorBody {
  error?: { message?: string; code?: string; status_code?: number };
}

/** The message and code of an error response; a body without the envelope falls back to the status. */
export function apiError(status: number, body: unknown): { message: string; code: string } {
  const error = typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined;
  return { message: error?.message ?? `HTTP ${status}`, code: error?.code ?? 'error' };
}
