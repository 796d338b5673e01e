// Asset links are bearer links: whoever holds one may fetch the file until it expires. Each is an
// HMAC of its path and expiry under the engine's signing key, so a link cannot be widened to another
// file or kept alive longer, and every GET of a piece hands out a fresh one.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Store } from '../../store/store';

export const LINK_LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export class AssetSigner {
  constructor(private readonly key: Buffer) {}

  private mac(path: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${path}\n${expires}`).digest('base64url');
  }

  /** `path?expires=…&signature=…`, valid for 30 days from `now` (seconds since the epoch). */
  sign(path: string, now = Math.floor(Date.now() / 1000)): string {
    const expires = now + LINK_LIFETIME_SECONDS;
    return `${path}?expires=${expires}&signature=${this.mac(path, expires)}`;
  }

  /** Whether `signature` was made by this engine for `path` and `expires`, and has not expired. */
  verify(path: string, expires: string | undefined, signature: string | undefined, now = Date.now() / 1000): boolean {
    if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return false;
    if (Number(expires) < now) return false;
    const expected = Buffer.from(this.mac(path, Number(expires)));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}

const SECRET_NAME = 'asset_signing_key';

/**
 * The signing key: the operator's ASSET_SIGNING_KEY, else one generated once and kept in the database,
 * so every engine process sharing it signs and verifies alike and links survive a restart.
 */
export async function loadAssetSigner(
  secrets: Store['engineSecrets'],
  configured: string | undefined,
): Promise<AssetSigner> {
  if (configured) return new AssetSigner(Buffer.from(configured));
  const key = await secrets.keepFirstSecret(SECRET_NAME, randomBytes(32).toString('base64url'));
  return new AssetSigner(Buffer.from(key));
}
