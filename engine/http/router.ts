// One route table for everything the engine answers: every catalog operation (found by walking the
// catalog) and the engine's own paths (the OpenAPI document; later asset links and the dashboard).
// Path templates name their parameters (`/v1/templates/{tmpl_id}/versions/{vrsn_id}`); each is compiled
// once into a pattern with named groups and decoded safely.
import type Koa from 'koa';
import { allOperations } from '../catalog';
import { pathParameterNames } from '../catalog/paths';
import type { HttpMethod, Operation, Resource } from '../catalog/types';
import { handlerFor } from './handlers';
import type { Handler } from './operation';

export interface ApiRoute {
  kind: 'api';
  resource: Resource;
  operation: Operation;
  handler: Handler;
  /** `POST /v1/addresses`: the rate-limit bucket and log label */
  label: string;
}

/** A path of the engine's own, answered without the API pipeline (no key, no rate limit). */
export interface EngineRoute {
  kind: 'engine';
  label: string;
  serve(ctx: Koa.Context, params: Record<string, string>): void | Promise<void>;
}

export type Route = ApiRoute | EngineRoute;

interface CompiledRoute {
  method: string;
  pattern: RegExp;
  names: string[];
  route: Route;
}

export interface RouteMatch<R extends Route = Route> {
  route: R;
  /** the path's named parameters, percent-decoded */
  params: Record<string, string>;
}

function compile(method: string, template: string, route: Route): CompiledRoute {
  const names = pathParameterNames(template);
  const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '([^/]+)');
  return { method, pattern: new RegExp(`^${source}/?$`), names, route };
}

export class Router {
  private readonly routes: CompiledRoute[] = [];

  constructor() {
    for (const { resource, operation } of allOperations()) {
      const handler = handlerFor(resource, operation);
      if (!handler) throw new Error(`no handler for ${resource.name}.${operation.name}`);
      const { body, query } = handler.schemas ?? {};
      if ((body && body !== operation.body) || (query && query !== operation.query)) {
        throw new Error(
          `the handler of ${resource.name}.${operation.name} is typed by schemas that are not the operation's`,
        );
      }
      const label = `${operation.method} ${operation.path}`;
      this.routes.push(compile(operation.method, operation.path, { kind: 'api', resource, operation, handler, label }));
    }
  }

  /** Adds one of the engine's own paths. */
  add(method: HttpMethod, template: string, serve: EngineRoute['serve']): this {
    this.routes.push(compile(method, template, { kind: 'engine', label: `${method} ${template}`, serve }));
    return this;
  }

  match(method: string, path: string): RouteMatch | undefined {
    for (const { method: m, pattern, names, route } of this.routes) {
      if (m !== method) continue;
      const found = pattern.exec(path);
      if (!found) continue;
      // A segment that is not valid percent-encoding, or decodes to a NUL, names nothing: kept as
      // written it is a 404 like any unknown id (and never reaches a database that refuses NULs).
      const params = Object.fromEntries(names.map((name, i) => [name, decodeSegment(found[i + 1])]));
      return { route, params };
    }
    return undefined;
  }

  /** Every route's method and template, for the self-check. */
  list(): { method: string; names: string[]; route: Route }[] {
    return this.routes.map(({ method, names, route }) => ({ method, names, route }));
  }
}

function decodeSegment(segment: string): string {
  try {
    const decoded = decodeURIComponent(segment);
    return decoded.includes('\u0000') ? segment : decoded;
  } catch {
    return segment;
  }
}
