// One route table for everything the engine answers: every catalog operation (found by walking the
// catalog) and the engine's own paths (the OpenAPI document, asset links, health). Path templates name
// their parameters (`/v1/templates/{tmpl_id}/versions/{id}`). A request is matched by its segments
// against the templates of the same length, fewest parameters first (`/v1/bulk/us_verifications`
// before `/v1/{x}/{id}`); literals compare without case, one trailing slash is allowed, HEAD is
// answered wherever GET is, and a known path asked with another method is told from an unknown one
// (405 with Allow for any method a known path does not serve, 404).
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import { allOperations } from '../catalog';
import type { HttpMethod, Operation, Resource } from '../catalog/types';
import { servedFor } from './handlers';
import type { Served } from './operation';

export interface ApiRoute {
  kind: 'api';
  resource: Resource;
  operation: Operation;
  /** the operation bound to what serves it */
  served: Served;
  /** `POST /v1/addresses`: the rate-limit bucket and log label */
  label: string;
}

/** What answers a route's requests, given the path's named parameters (percent-decoded). */
export type RouteHandler = (ctx: Koa.Context, params: Record<string, string>) => void | Promise<void>;

/** A path of the engine's own, answered without the API pipeline (no key, no rate limit). */
export interface EngineRoute {
  kind: 'engine';
  label: string;
  serve: RouteHandler;
}

export type Route = ApiRoute | EngineRoute;

interface Entry {
  method: HttpMethod;
  template: string;
  route: Route;
}

export interface RouteMatch<R extends Route = Route> {
  route: R;
  /** the path's named parameters, percent-decoded */
  params: Record<string, string>;
}

/** A template compiled: its literal segments (lower case) and where its parameters go. */
interface Pattern {
  template: string;
  /** per segment: the literal it must be, or undefined for a parameter */
  literals: (string | undefined)[];
  /** parameter names by segment position */
  names: (string | undefined)[];
  params: number;
  /** by method; HEAD is added wherever GET is and HEAD is not declared */
  routes: Map<string, Route>;
}

/** What a request finds: a route, or only the methods its path serves, or nothing. */
export type Found = { route: Route; params: Record<string, string> } | { allowed: string[] } | undefined;

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

function compile(template: string): Pattern {
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

function matches(pattern: Pattern, lower: readonly string[]): boolean {
  const { literals } = pattern;
  for (let i = 0; i < literals.length; i++) {
    const literal = literals[i];
    if (literal === undefined ? lower[i] === '' : literal !== lower[i]) return false;
  }
  return true;
}

function paramsOf(pattern: Pattern, segments: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  pattern.names.forEach((name, i) => {
    if (name) params[name] = decodeSegment(segments[i]);
  });
  return params;
}

export class Router {
  private readonly entries: Entry[] = [];
  /** patterns by segment count, fewest parameters first (ties: in the order they were added) */
  private table: Map<number, Pattern[]> | undefined;

  constructor() {
    for (const { resource, operation } of allOperations()) {
      const served = servedFor(resource, operation);
      if (!served) throw new Error(`nothing serves ${resource.name}.${operation.name}`);
      const label = `${operation.method} ${operation.path}`;
      this.entries.push({
        method: operation.method,
        template: operation.path,
        route: { kind: 'api', resource, operation, served, label },
      });
    }
  }

  /** Adds one of the engine's own paths. */
  add(method: HttpMethod, template: string, serve: RouteHandler): this {
    this.entries.push({ method, template, route: { kind: 'engine', label: `${method} ${template}`, serve } });
    this.table = undefined;
    return this;
  }

  private compiled(): Map<number, Pattern[]> {
    if (this.table) return this.table;
    const byTemplate = new Map<string, Pattern>();
    for (const { method, template, route } of this.entries) {
      let pattern = byTemplate.get(template);
      if (!pattern) byTemplate.set(template, (pattern = compile(template)));
      // HEAD is answered wherever GET is
      if (method === 'GET' && !pattern.routes.has('GET')) pattern.routes.set('HEAD', route);
      if (!pattern.routes.has(method)) pattern.routes.set(method, route);
    }
    const table = new Map<number, Pattern[]>();
    for (const pattern of byTemplate.values()) {
      const length = pattern.literals.length;
      table.set(length, [...(table.get(length) ?? []), pattern]);
    }
    for (const patterns of table.values()) patterns.sort((a, b) => a.params - b.params);
    return (this.table = table);
  }

  /** The route `method path` takes and its parameters; else the methods the path serves, if any. */
  find(method: string, path: string): Found {
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
  match(method: string, path: string): RouteMatch | undefined {
    const found = this.find(method, path);
    return found && 'route' in found ? found : undefined;
  }

  /**
   * The middleware that answers every route with what `handlerOf` gives it (built once per route);
   * what it cannot route is the spec's error: 405 with Allow for a path that serves other methods
   * (whatever the method), 404 for an unknown path.
   */
  middleware(handlerOf: (route: Route) => RouteHandler): Koa.Middleware {
    const handlers = new Map<Route, RouteHandler>();
    for (const { route } of this.entries) if (!handlers.has(route)) handlers.set(route, handlerOf(route));
    return (ctx) => {
      const found = this.find(ctx.method, ctx.path);
      if (found && 'route' in found) return handlers.get(found.route)!(ctx, found.params);
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

  /** Every route's method and template, for the self-check. */
  list(): { method: string; template: string; route: Route }[] {
    return this.entries.map(({ method, template, route }) => ({ method, template, route }));
  }
}
