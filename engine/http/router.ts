// The route table: what the app fills it with (routes.ts) is its own affair; the router only matches.
// Path templates name their parameters (`/v1/templates/{tmpl_id}/versions/{id}`). A request is matched
// by its segments against the templates of the same length, fewest parameters first
// (`/v1/bulk/us_verifications` before `/v1/{x}/{id}`); literals compare without case, one trailing
// slash is allowed, HEAD is answered wherever GET is, and a known path asked with another method is
// told from an unknown one (405 with Allow for any method a known path does not serve, 404).
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import type { HttpMethod } from '../catalog/types';

/** What a route must tell the router: its name in the request log. */
export interface Labeled {
  /** `POST /v1/addresses` */
  label: string;
}

/** One row of the table: a method and path template, and what the app routes there. */
export interface RouteEntry<R extends Labeled> {
  method: HttpMethod;
  template: string;
  route: R;
}

/** What answers a route's requests, given the path's named parameters (percent-decoded). */
export type RouteHandler = (ctx: Koa.Context, params: Record<string, string>) => void | Promise<void>;

export interface RouteMatch<R extends Labeled> {
  route: R;
  /** the path's named parameters, percent-decoded */
  params: Record<string, string>;
}

/** A template compiled: its literal segments (lower case) and where its parameters go. */
interface Pattern<R> {
  template: string;
  /** per segment: the literal it must be, or undefined for a parameter */
  literals: (string | undefined)[];
  /** parameter names by segment position */
  names: (string | undefined)[];
  params: number;
  /** by method; HEAD is added wherever GET is and HEAD is not declared */
  routes: Map<string, R>;
}

/** What a request finds: a route, or only the methods its path serves, or nothing. */
export type Found<R extends Labeled> = RouteMatch<R> | { allowed: string[] } | undefined;

/** The methods any route could serve, in the order Allow lists them. */
const METHOD_ORDER = ['HEAD', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * A segment that is not valid percent-encoding is kept as written; one that decodes to a NUL is kept as
 * written too: either way it names nothing (a 404 like any unknown id), and never reaches a database
 * that refuses NULs.
 */
function decodeSegment(raw: string): string {
  if (!raw.includes('%')) return raw;
  try {
    const decoded = decodeURIComponent(raw);
    return decoded.includes('\u0000') ? raw : decoded;
  } catch {
    return raw;
  }
}

function compile<R>(template: string): Pattern<R> {
  const segments = template.split('/');
  const names = segments.map((s) => /^\{(\w+)\}$/.exec(s)?.[1]);
  return {
    template,
    literals: segments.map((s, i) => (names[i] ? undefined : s.toLowerCase())),
    names,
    params: names.filter(Boolean).length,
    routes: new Map(),
  };
}

function matches(pattern: Pattern<unknown>, lower: readonly string[]): boolean {
  const { literals } = pattern;
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    if (literal === undefined ? lower[i] === '' : literal !== lower[i]) return false;
  }
  return true;
}

function paramsOf(pattern: Pattern<unknown>, segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  pattern.names.forEach((name, i) => {
    if (name) params[name] = decodeSegment(segments[i]);
  });
  return params;
}

export class Router<R extends Labeled> {
  private readonly entries: RouteEntry<R>[];
  /** patterns by segment count, fewest parameters first (ties: in the order they were added) */
  private table: Map<number, Pattern<R>[]> | undefined;

  constructor(table: Iterable<RouteEntry<R>> = []) {
    this.entries = [...table];
  }

  /** Adds a route after those of the table (a template already taken for the method keeps its first). */
  add(method: HttpMethod, template: string, route: R): this {
    this.entries.push({ method, template, route });
    this.table = undefined;
    return this;
  }

  private compiled(): Map<number, Pattern<R>[]> {
    if (this.table) return this.table;
    const byTemplate = new Map<string, Pattern<R>>();
    for (const { method, template, route } of this.entries) {
      let pattern = byTemplate.get(template);
      if (!pattern) byTemplate.set(template, (pattern = compile<R>(template)));
      // HEAD is answered wherever GET is
      if (method === 'GET' && !pattern.routes.has('GET')) pattern.routes.set('HEAD', route);
      if (!pattern.routes.has(method)) pattern.routes.set(method, route);
    }
    const table = new Map<number, Pattern<R>[]>();
    for (const pattern of byTemplate.values()) {
      const length = pattern.literals.length;
      table.set(length, [...(table.get(length) ?? []), pattern]);
    }
    for (const patterns of table.values()) patterns.sort((a, b) => a.params - b.params);
    return (this.table = table);
  }

  /** The route `method path` takes and its parameters; else the methods the path serves, if any. */
  find(method: string, path: string): Found<R> {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const segments = trimmed.split('/');
    const patterns = this.compiled().get(segments.length);
    if (!patterns) return undefined;
    const lower = trimmed.toLowerCase().split('/');
    let allowed: Set<string> | undefined;
    for (const pattern of patterns) {
      if (!matches(pattern, lower)) continue;
      const route = pattern.routes.get(method);
      if (route) return { route, params: paramsOf(pattern, segments) };
      allowed ??= new Set();
      for (const m of pattern.routes.keys()) allowed.add(m);
    }
    return allowed && { allowed: METHOD_ORDER.filter((m) => allowed.has(m)) };
  }

  /** The route a request would take, and its parameters (the self-check's view of the same table). */
  match(method: string, path: string): RouteMatch<R> | undefined {
    const found = this.find(method, path);
    return found && 'route' in found ? found : undefined;
  }

  /**
   * The middleware that answers every route with what `handlerOf` gives it (built once per route) and
   * names the route for the request log; what it cannot route is the spec's error: 405 with Allow for
   * a path that serves other methods (whatever the method), 404 for an unknown path.
   */
  middleware(handlerOf: (route: R) => RouteHandler): Koa.Middleware {
    const handlers = new Map<R, RouteHandler>();
    for (const { route } of this.entries) if (!handlers.has(route)) handlers.set(route, handlerOf(route));
    return (ctx) => {
      const found = this.find(ctx.method, ctx.path);
      if (found && 'route' in found) {
        ctx.state.route = found.route.label;
        return handlers.get(found.route)!(ctx, found.params);
      }
      // any other method on a known path, TRACE and WebDAV's too, is the client's mistake: 405, never a 5xx
      if (found)
        throw new ApiError(
          'method_not_allowed',
          `${ctx.method} is not served on ${ctx.path}; it serves ${found.allowed.join(', ')}.`,
          405,
          { Allow: found.allowed.join(', ') },
        );
      throw new ApiError(
        'unrecognized_endpoint',
        `The requested endpoint ${ctx.method} ${ctx.path} does not exist.`,
        404,
      );
    };
  }
}
