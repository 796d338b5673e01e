// Signing in with a secret key (test or live; a publishable key cannot), the second key that unlocks the
// other mode, and signing out (the session's row is ended on the server). Failed sign-in attempts are
// counted per client address in the engine's shared rate windows (rate_windows, so every process sharing
// the database counts them together): after SIGN_IN_LIMIT in a minute (a sliding minute, estimated from
// two fixed windows), every attempt is 429 until the count falls below it, a right key too. Successful
// ones are not counted: a team signing in is not an attack.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';
import type { Services } from '../../domain/services';
import type { Mode } from '../../catalog/types';
import type { DatabaseHitCounter } from '../../store/rate-windows';
import { clientAddress, requestOrigin } from '../../http/transport';
import { readForm } from './body';
import { newNonce, securityHeaders } from './headers';
import type { PageAnswer } from './page';
import {
  cookieHeader,
  isMode,
  SESSION_COOKIE,
  SIGN_IN_COOKIE,
  readCookie,
  sameText,
  type DashboardSession,
  type SessionKeeper,
} from './session';
import type { Views } from './views';

export const SIGN_IN_LIMIT = 10;
const WINDOW_MS = 60_000;

export class SignIn {
  private readonly counter: DatabaseHitCounter;

  constructor(
    private readonly services: Services,
    private readonly keeper: SessionKeeper,
    private readonly views: Views,
  ) {
    this.counter = services.store.sharedHitCounter();
  }

  /** Served over HTTPS (directly, through a trusted proxy, or at an https PUBLIC_URL): the cookies say Secure. */
  private secure(ctx: Koa.Context): boolean {
    const { trustedProxies, publicUrl } = this.services.config;
    return requestOrigin(ctx.req, trustedProxies, publicUrl).startsWith('https:');
  }

  async serve(ctx: Koa.Context, css: string): Promise<void> {
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (await this.keeper.find(ctx.req)) {
        ctx.status = 303;
        ctx.redirect('/dashboard');
        return;
      }
      return this.form(ctx, css, 200);
    }
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      ctx.set('Allow', 'GET, POST');
      return;
    }
    const address = clientAddress(ctx.req, this.services.config.trustedProxies);
    const now = Date.now();
    const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    const bucket = `dashboard-sign-in ${address}`;
    const wait = await this.waitMs(bucket, windowStart, now);
    if (wait > 0) {
      ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
      return this.form(ctx, css, 429, 'Too many sign-in attempts from your address. Wait a minute and try again.');
    }
    const failed = async (status: number, problem: string) => {
      await this.counter.add(bucket, windowStart);
      this.form(ctx, css, status, problem);
    };
    const form = await readForm(ctx);
    const expected = this.keeper.unsign(readCookie(ctx.req, SIGN_IN_COOKIE));
    if (!expected || typeof form._csrf !== 'string' || !sameText(form._csrf, expected))
      return failed(403, 'This form has expired. Try again.');
    const caller = await this.services.accounts.authenticate((form.key ?? '').trim());
    if (!caller) return failed(401, 'That key is not valid (or has been revoked).');
    if (caller.kind !== 'secret')
      return failed(403, 'A publishable key cannot sign in: use a secret key (test_… or live_…).');
    const cookie = await this.keeper.start(caller.account, caller.mode, caller.keyHash);
    const minutes = this.services.config.dashboardSessionMinutes;
    ctx.set('Set-Cookie', [
      cookieHeader(SESSION_COOKIE, cookie, this.secure(ctx), Math.floor(minutes * 60)),
      cookieHeader(SIGN_IN_COOKIE, '', this.secure(ctx), 0),
    ]);
    ctx.status = 303;
    ctx.redirect('/dashboard');
  }

  /**
   * How long the address must wait: failures are counted over the last minute as it slides (this
   * window's, plus the last window's weighted by how much of it is still within a minute), so ten
   * attempts straddling a window's edge are ten in a minute, not five and five.
   */
  private async waitMs(bucket: string, windowStart: number, now: number): Promise<number> {
    const windows = this.services.store.dashboard;
    const current = await windows.windowCount(bucket, windowStart);
    const previous = await windows.windowCount(bucket, windowStart - WINDOW_MS);
    const left = 1 - (now - windowStart) / WINDOW_MS;
    if (current + previous * left < SIGN_IN_LIMIT) return 0;
    if (current >= SIGN_IN_LIMIT) return windowStart + WINDOW_MS - now;
    // the last window's share falls as this one goes on: until it is below what the limit leaves
    const freeAt = windowStart + WINDOW_MS * (1 - (SIGN_IN_LIMIT - current) / previous);
    return Math.max(1_000, freeAt - now);
  }

  private form(ctx: Koa.Context, css: string, status: number, problem?: string): void {
    const token = randomBytes(24).toString('base64url');
    const nonce = newNonce();
    securityHeaders(ctx, nonce);
    ctx.set('Set-Cookie', cookieHeader(SIGN_IN_COOKIE, this.keeper.sign(token), this.secure(ctx)));
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = this.views.render(
      'sign-in',
      { problem, csrf: token },
      { title: 'Sign in', signedIn: false, nonce, inlineStyle: css },
    );
  }

  async signOut(ctx: Koa.Context, session: DashboardSession): Promise<void> {
    await this.keeper.end(session);
    ctx.set('Set-Cookie', cookieHeader(SESSION_COOKIE, '', this.secure(ctx), 0));
    ctx.status = 303;
    ctx.redirect('/dashboard/sign-in');
  }

  /** To a mode this session unlocked, or, with that mode's secret key of the same account, to a new one. */
  async switchMode(
    ctx: Koa.Context,
    session: DashboardSession,
    form: Record<string, string>,
    answer: (page: PageAnswer) => void,
  ): Promise<void> {
    const mode: Mode | undefined = isMode(form.mode) ? form.mode : undefined;
    const back = { redirect: '/dashboard', notice: 'mode_switched' };
    if (mode && session.modes.includes(mode)) {
      await this.keeper.setModes(session, mode, session.modes);
      return answer(back);
    }
    const caller = form.key ? await this.services.accounts.authenticate(form.key.trim()) : undefined;
    if (!caller || caller.kind !== 'secret' || caller.account.id !== session.account.id)
      return answer({
        view: 'problem',
        title: 'Mode not switched',
        status: 403,
        data: {
          heading: 'Mode not switched',
          text: "Give a secret key of this account's other mode to switch to it.",
        },
      });
    const modes = session.modes.includes(caller.mode) ? session.modes : [...session.modes, caller.mode];
    const hashes = session.keyHashes.includes(caller.keyHash)
      ? session.keyHashes
      : [...session.keyHashes, caller.keyHash];
    await this.keeper.setModes(session, caller.mode, modes, hashes);
    answer(back);
  }
}
