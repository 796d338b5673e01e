// Remote artwork (a URL in an artwork field) is fetched when the piece is created, behind the SSRF
// guard, and then treated as an upload; the guard's refusals become the spec's error codes.
import { ApiError } from '../../base/errors';
import { FetchRefused, guardedFetch, type FetchRefusal } from '../../platform/net/guarded-fetch';

export interface RemoteLimits {
  maxBytes: number;
  timeoutMs: number;
  allowedNetworks: ReadonlySet<string>;
}

const CODE_OF: Record<FetchRefusal, string> = {
  bad_url: 'invalid_file_url',
  private_network: 'invalid_file_url',
  network: 'invalid_file_url',
  http_status: 'invalid_file_url',
  timeout: 'invalid_file_download_time',
  too_large: 'file_size_exceeds_limit',
};

function refusal(field: string, err: FetchRefused, limits: RemoteLimits): ApiError {
  const why =
    err.reason === 'timeout'
      ? `was not downloaded within ${limits.timeoutMs / 1000} seconds`
      : err.reason === 'too_large'
        ? `is larger than ${Math.round(limits.maxBytes / 1_048_576)} MB`
        : err.reason === 'private_network'
          ? 'points into a private network, which is not fetched from'
          : `could not be fetched: ${err.message}`;
  return new ApiError(CODE_OF[err.reason], `${field}: the file at the URL ${why}`, 422);
}

function fileName(href: string): string {
  const last = new URL(href).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(last) || 'remote';
  } catch {
    return last;
  }
}

/** The bytes at `url`, and a file name for them (the URL's last path segment). */
export async function fetchRemoteArtwork(
  field: string,
  url: string,
  limits: RemoteLimits,
): Promise<{ bytes: Buffer; filename: string }> {
  try {
    const fetched = await guardedFetch(url, limits);
    return { bytes: fetched.bytes, filename: fileName(fetched.finalUrl) };
  } catch (err) {
    if (err instanceof FetchRefused) throw refusal(field, err, limits);
    throw err;
  }
}
