// One route table for everything the engine answers: every catalog operation (found by walking the
// catalog) and the engine's own paths (the OpenAPI document, asset links, health), registered on
// @koa/router with each route's own middleware. Path templates name their parameters
// (`/v1/templates/{tmpl_id}/versions/{id}`); the router compiles each once, tries literal paths before
// parameterized ones (`/v1/bulk/us_verifications` before `/v1/{x}/{id}`), answers HEAD for GET, and
// tells a known path asked with another method (405, with Allow) from an unknown one.
import KoaRouter, { type RouterContext, type RouterMiddleware } from '@koa/router';
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

/** A path of the engine's own, answered without the API pipeline (no key, no rate limit). */
export interface EngineRoute {
  kind: 'engine';
  label: string;
  serve(ctx: RouterContext, params: Record<string, string>): void | Promise<void>;
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

/** `/v1/templates/{tmpl_id}` as @koa/router writes it: `/v1/templates/:tmpl_id`. */
const koaPath = (template: string) => template.replace(/\{(\w+)\}/g, ':$1');

/**
 * A segment that is not valid percent-encoding is kept as written by the router; one that decodes to a
 * NUL is kept as written here: either way it names nothing (a 404 like any unknown id), and never
 * reaches a database that refuses NULs.
 */
export function safeParams(params: Record<string, string>, captures: readonly string[]): Record<string, string> {
  const names = Object.keys(params);
  return Object.fromEntries(
    names.map((name, i) => [name, params[name].includes('\u0000') ? captures[i] : params[name]]),
  );
}

export class Router {
  private readonly entries: Entry[] = [];
  private matcher: KoaRouter | undefined;

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
  add(method: HttpMethod, template: string, serve: EngineRoute['serve']): this {
    this.entries.push({ method, template, route: { kind: 'engine', label: `${method} ${template}`, serve } });
    this.matcher = undefined;
    return this;
  }

  /** A @koa/router with every route registered, each with the middleware `stackFor` gives it. */
  koaRouter(stackFor: (route: Route) => RouterMiddleware[]): KoaRouter {
    const router = new KoaRouter({ exclusive: 'specificity' });
    for (const { method, template, route } of this.entries)
      router.register(koaPath(template), [method], stackFor(route), { name: route.label });
    return router;
  }

  /** The route a request would take, and its parameters (the self-check's view of the same router). */
  match(method: string, path: string): RouteMatch | undefined {
    this.matcher ??= this.koaRouter(() => [(_ctx, next) => next()]);
    const layers = this.matcher.match(path, method).pathAndMethod;
    const layer = layers.reduce<(typeof layers)[number] | undefined>(
      (best, l) => (!best || l.paramNames.length < best.paramNames.length ? l : best),
      undefined,
    );
    const entry = layer && this.entries.find((e) => e.route.label === layer.name);
    if (!layer || !entry) return undefined;
    const captures = layer.captures(path);
    return { route: entry.route, params: safeParams(layer.params(path, captures, {}), captures) };
  }

  /** Every route's method and template, for the self-check. */
  list(): { method: string; template: string; route: Route }[] {
    return this.entries.map(({ method, template, route }) => ({ method, template, route }));
  }
}
