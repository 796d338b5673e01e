// Service-Version: a dated version no older than the account's own.
import { ApiError } from '../base/errors';

const VERSION = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** Request headers that carry the version: ours, and the one the original vendor's clients send. */
export const VERSION_HEADERS = ['Service-Version', 'Lob-Version'] as const;

/** The version this request runs under. */
export function requestVersion(header: string | undefined, accountVersion: string): string {
  if (header === undefined || header === '') return accountVersion;
  const value = header.trim();
  if (!VERSION.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ApiError('invalid', 'Service-Version must be a date in the form YYYY-MM-DD', 422);
  }
  if (value < accountVersion) {
    throw new ApiError(
      'unsupported_service_version',
      `Service-Version ${value} is older than this account's version ${accountVersion}`,
      422,
    );
  }
  return value;
}
