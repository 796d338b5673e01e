// Dashboard sessions: a random id in an HttpOnly, SameSite=Strict cookie, HMAC-signed with an engine
// secret (kept in the database, so every process sharing it accepts the cookie); the server keeps only
// the id's hash, the account, the modes unlocked, the hashes of the keys that unlocked them and the
// form token. A forged, altered, ended or expired cookie finds no session, nor does one whose keys
// include a key revoked since.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Mode } from '../../catalog/types';
import type { Account } from '../../domain/accounts/accounts';
import type { Services } from '../../domain/services';
import type { SessionRow } from '../../store/dashboard';

export const SESSION_COOKIE = 'printpost_dashboard';
/** the sign-in form's own token, before any session exists (login CSRF) */
export const SIGN_IN_COOKIE = 'printpost_sign_in';

export interface DashboardSession {
  idHash: string;
  account: Account;
  mode: Mode;
  modes: Mode[];
  keyHashes: string[];
  /** the token every form of this session carries (`_csrf`) */
  csrf: string;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export const isMode = (value: unknown): value is Mode => value === 'test' || value === 'live';

export class SessionKeeper {
  private constructor(
    private readonly services: Services,
    private readonly key: string,
  ) {}

  static async open(services: Services): Promise<SessionKeeper> {
    const key = await services.store.engineSecrets.keepFirstSecret(
      'dashboard_cookie_key',
      randomBytes(32).toString('hex'),
    );
    return new SessionKeeper(services, key);
  }

  sign(value: string): string {
    return `${value}.${createHmac('sha256', this.key).update(value).digest('base64url')}`;
  }

  /** The value a signed cookie carries, or undefined when its signature is wrong. */
  unsign(signed: string | undefined): string | undefined {
    if (!signed) return undefined;
    const dot = signed.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const value = signed.slice(0, dot);
    return sameText(this.sign(value), signed) ? value : undefined;
  }

  /** Starts a session; returns the cookie value. */
  async start(account: Account, mode: Mode, keyHash: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    const now = new Date();
    const minutes = this.services.config.dashboardSessionMinutes;
    await this.services.store.dashboard.dropSessionsBefore(new Date(now.getTime() - 86_400_000).toISOString());
    await this.services.store.dashboard.insertSession({
      id_hash: sha256(id),
      account_id: account.id,
      mode,
      modes: mode,
      key_hashes: keyHash,
      csrf_secret: randomBytes(24).toString('base64url'),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + minutes * 60_000).toISOString(),
      ended_at: null,
    });
    return this.sign(id);
  }

  /** The live session the request's cookie names, with its account read afresh. */
  async find(req: IncomingMessage): Promise<DashboardSession | undefined> {
    const id = this.unsign(readCookie(req, SESSION_COOKIE));
    if (!id) return undefined;
    const row = await this.services.store.dashboard.liveSession(sha256(id), new Date().toISOString());
    if (!row || !isMode(row.mode)) return undefined;
    // a session lasts while the keys that opened it do (the key cache would answer for a revoked one)
    for (const hash of row.key_hashes.split(','))
      if (!(await this.services.store.accounts.keyWithAccount(hash))) return undefined;
    const account = await this.services.accounts.byId(row.account_id);
    return account && toSession(row, account);
  }

  async end(session: DashboardSession): Promise<void> {
    await this.services.store.dashboard.endSession(session.idHash, new Date().toISOString());
  }

  async setModes(session: DashboardSession, mode: Mode, modes: Mode[], keyHashes = session.keyHashes): Promise<void> {
    await this.services.store.dashboard.setSessionModes(session.idHash, mode, modes.join(','), keyHashes.join(','));
  }
}

function toSession(row: SessionRow, account: Account): DashboardSession {
  return {
    idHash: row.id_hash,
    account,
    mode: row.mode,
    modes: row.modes.split(',').filter(isMode),
    keyHashes: row.key_hashes.split(','),
    csrf: row.csrf_secret,
  };
}

export function readCookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decoded(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** A cookie's value percent-decoded; a malformed one (`%E0%A4`) is no value rather than an error. */
function decoded(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** A Set-Cookie value: HttpOnly, SameSite=Strict, Path /dashboard; Secure when served over HTTPS. */
export function cookieHeader(name: string, value: string, secure: boolean, maxAgeSeconds?: number): string {
  return [
    `${name}=${encodeURIComponent(value)}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=Strict',
    ...(secure ? ['Secure'] : []),
    ...(maxAgeSeconds !== undefined ? [`Max-Age=${maxAgeSeconds}`] : []),
  ].join('; ');
}
