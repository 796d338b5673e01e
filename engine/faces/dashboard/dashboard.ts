// The dashboard's own pipeline under /dashboard, apart from the API's: security headers, the session
// (else the sign-in page), the CSRF token of every POST, the page's handler, its view in the layout.
import fs from 'node:fs';
import path from 'node:path';
import type Koa from 'koa';
import type { Services } from '../../domain/services';
import { messageOf } from '../../base/thrown';
import { BodyRefused, readForm, readMultipartForm, singleQuery, UploadRefused } from './body';
import { discardUploads, type UploadedFile } from '../../http/multipart';
import { securityHeaders } from './headers';
import { noticeOf } from './notices';
import { isRedirect, isRendered, PageNotFound, type PageAnswer, type PageRoute, type Rendered } from './page';
import { sameText, SessionKeeper, type DashboardSession } from './session';
import { sourceFolder, Views } from './views';
import { SignIn } from './sign-in';
import { DASHBOARD_PAGES, NAV } from './pages';

export const DASHBOARD_PATH = '/dashboard';

const ASSET_TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
};

/** The stylesheet, the script and a piece's files: not pages a browser is sent to sign in from. */
const isFile = (path: string) => path.startsWith(`${DASHBOARD_PATH}/assets/`) || /\/files\/[^/]+$/.test(path);

interface CompiledRoute extends PageRoute {
  pattern: RegExp;
  names: string[];
}

function compile(route: PageRoute): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { ...route, names, pattern: new RegExp(`^${DASHBOARD_PATH}${source === '/' ? '/?' : source}$`) };
}

export class Dashboard {
  private readonly routes: CompiledRoute[] = DASHBOARD_PAGES.map(compile);
  private readonly assets = new Map<string, { type: string; bytes: Buffer }>();

  private constructor(
    private readonly services: Services,
    readonly keeper: SessionKeeper,
    readonly views: Views,
    private readonly signIn: SignIn,
  ) {
    const folder = sourceFolder('assets');
    for (const file of fs.readdirSync(folder)) {
      const type = ASSET_TYPES[path.extname(file)];
      if (type) this.assets.set(file, { type, bytes: fs.readFileSync(path.join(folder, file)) });
    }
  }

  static async open(services: Services): Promise<Dashboard> {
    const keeper = await SessionKeeper.open(services);
    const views = new Views();
    return new Dashboard(services, keeper, views, new SignIn(services, keeper, views));
  }

  /** The stylesheet, for the sign-in page's nonce'd <style> (its link would need a session). */
  stylesheet(): string {
    return this.assets.get('dashboard.css')?.bytes.toString('utf8') ?? '';
  }

  async handle(ctx: Koa.Context): Promise<void> {
    securityHeaders(ctx);
    ctx.state.route = `${ctx.method} ${DASHBOARD_PATH}`;
    try {
      await this.serve(ctx);
    } catch (error) {
      if (error instanceof PageNotFound) return this.problem(ctx, 404, 'Not found', 'There is nothing here.');
      if (error instanceof BodyRefused) return this.problem(ctx, 400, 'Bad request', 'The form could not be read.');
      if (error instanceof UploadRefused)
        return this.problem(ctx, error.reason.status, 'The file was not received', `${error.reason.message}.`);
      if (this.services.config.logLevel !== 'silent')
        process.stderr.write(`dashboard ${ctx.method} ${ctx.path}: ${messageOf(error)}\n`);
      this.problem(ctx, 500, 'Something went wrong', 'The engine could not show this page. Its log says why.');
    }
  }

  private async serve(ctx: Koa.Context): Promise<void> {
    if (ctx.path === `${DASHBOARD_PATH}/sign-in`) return this.signIn.serve(ctx, this.stylesheet());
    const session = await this.keeper.find(ctx.req);
    if (!session) {
      // nothing answers without a session: pages send the browser to sign in, the rest is refused
      if (ctx.method === 'GET' && !isFile(ctx.path)) {
        ctx.status = 303;
        ctx.redirect(`${DASHBOARD_PATH}/sign-in`);
        return;
      }
      ctx.status = 401;
      ctx.type = 'text/plain';
      ctx.body = 'Sign in first.';
      return;
    }
    if (ctx.method === 'GET' && ctx.path.startsWith(`${DASHBOARD_PATH}/assets/`)) return this.asset(ctx);
    if (ctx.path === `${DASHBOARD_PATH}/sign-out` && ctx.method === 'POST') {
      const form = await readForm(ctx);
      if (!this.csrfOk(session, form)) return this.csrfRefused(ctx, session);
      return this.signIn.signOut(ctx, session);
    }
    if (ctx.path === `${DASHBOARD_PATH}/mode` && ctx.method === 'POST') {
      const form = await readForm(ctx);
      if (!this.csrfOk(session, form)) return this.csrfRefused(ctx, session);
      return this.signIn.switchMode(ctx, session, form, (answer) => this.answer(ctx, session, answer));
    }
    for (const route of this.routes) {
      const match = route.pattern.exec(ctx.path);
      if (!match) continue;
      if (route.method !== ctx.method && !(route.method === 'GET' && ctx.method === 'HEAD')) continue;
      const params = Object.fromEntries(route.names.map((name, i) => [name, pathPart(match[i + 1])]));
      const { form, files } = await this.formOf(ctx, route);
      try {
        if (ctx.method === 'POST' && !this.csrfOk(session, form)) return this.csrfRefused(ctx, session);
        const scope = { accountId: session.account.id, mode: session.mode };
        const answer = await route.handler({
          ctx,
          services: this.services,
          session,
          scope,
          params,
          query: singleQuery(ctx),
          form,
          files,
        });
        return this.answer(ctx, session, answer);
      } finally {
        if (files.length) await discardUploads(files);
      }
    }
    throw new PageNotFound();
  }

  /** A POST's fields (and, for a page that takes files, its files); nothing for a GET. */
  private async formOf(
    ctx: Koa.Context,
    route: CompiledRoute,
  ): Promise<{ form: Record<string, string>; files: UploadedFile[] }> {
    if (ctx.method !== 'POST') return { form: {}, files: [] };
    if (route.files?.length) return readMultipartForm(ctx, this.services.config, route.files);
    return { form: await readForm(ctx), files: [] };
  }

  private csrfOk(session: DashboardSession, form: Record<string, string>): boolean {
    return typeof form._csrf === 'string' && sameText(form._csrf, session.csrf);
  }

  private csrfRefused(ctx: Koa.Context, session: DashboardSession): void {
    this.answer(ctx, session, {
      view: 'problem',
      title: 'Form expired',
      status: 403,
      data: { heading: 'This form has expired', text: 'Go back, reload the page and try again.' },
    });
  }

  private asset(ctx: Koa.Context): void {
    const asset = this.assets.get(ctx.path.slice(`${DASHBOARD_PATH}/assets/`.length));
    if (!asset) throw new PageNotFound();
    ctx.set('Cache-Control', 'private, max-age=300');
    ctx.type = asset.type;
    ctx.body = asset.bytes;
  }

  answer(ctx: Koa.Context, session: DashboardSession, answer: PageAnswer): void {
    if (isRedirect(answer)) {
      ctx.status = 303;
      const sep = answer.redirect.includes('?') ? '&' : '?';
      ctx.redirect(answer.notice ? `${answer.redirect}${sep}notice=${answer.notice}` : answer.redirect);
      return;
    }
    if (!isRendered(answer)) return; // the handler streamed its own body (a file)
    ctx.status = answer.status ?? 200;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = answer.bare
      ? this.views.renderBare(answer.view, answer.data)
      : this.views.render(answer.view, answer.data, this.layoutData(ctx, session, answer));
  }

  layoutData(ctx: Koa.Context, session: DashboardSession, answer: Rendered): Record<string, unknown> {
    const other = session.mode === 'test' ? 'live' : 'test';
    return {
      title: answer.title,
      signedIn: true,
      account: session.account.name,
      mode: session.mode,
      live: session.mode === 'live',
      otherMode: other,
      otherUnlocked: session.modes.includes(other),
      csrf: session.csrf,
      nav: NAV.map((entry) => ({ ...entry, active: entry.name === answer.nav })),
      notice: noticeOf(singleQuery(ctx).notice),
    };
  }

  private problem(ctx: Koa.Context, status: number, heading: string, text: string): void {
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = this.views.render(
      'problem',
      { heading, text },
      { title: heading, signedIn: false, stylesheetLink: false },
    );
  }
}

/** Mounted ahead of the API's router (engine/faces/server.ts): /dashboard and below, nothing else. */
export function dashboardEndpoint(services: Services): Koa.Middleware {
  let opened: Promise<Dashboard> | undefined;
  return async (ctx, next) => {
    if (ctx.path !== DASHBOARD_PATH && !ctx.path.startsWith(`${DASHBOARD_PATH}/`)) return next();
    opened ??= Dashboard.open(services).catch((error: unknown) => {
      opened = undefined;
      throw error;
    });
    await (await opened).handle(ctx);
  };
}

/** A path segment percent-decoded; one that is not valid percent-encoding names no page. */
function pathPart(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new PageNotFound();
  }
}
