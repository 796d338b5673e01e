// What the engine routes: every catalog operation (found by walking the catalog, each bound once to
// what serves it) and the engine's own paths. app.ts fills the router's table with these rows.
import { allOperations } from '../catalog';
import type { HttpMethod, Operation, Resource } from '../catalog/types';
import { servedFor } from './handlers';
import type { Served } from './operation';
import type { RouteEntry, RouteHandler } from './router';

/** A catalog operation: answered through the API steps of pipeline.ts. */
export interface ApiRoute {
  kind: 'api';
  resource: Resource;
  operation: Operation;
  /** the operation bound to what serves it (`operation` is `served.operation`) */
  served: Served;
  /** `POST /v1/addresses`: the rate-limit bucket and log label */
  label: string;
}

/** A path of the engine's own, answered without the API steps (no key, no rate limit). */
export interface EngineRoute {
  kind: 'engine';
  label: string;
  serve: RouteHandler;
}

export type Route = ApiRoute | EngineRoute;

/** A row for every catalog operation; one that nothing serves stops the engine from starting. */
export function apiRoutes(): RouteEntry<ApiRoute>[] {
  return allOperations().map(({ resource, operation }) => {
    const served = servedFor(resource, operation);
    if (!served) throw new Error(`nothing serves ${resource.name}.${operation.name}`);
    const label = `${operation.method} ${operation.path}`;
    return {
      method: operation.method,
      template: operation.path,
      // the operation the handler was bound to: what the pipeline validates against is what it hands `run`
      route: { kind: 'api', resource, operation: served.operation, served, label },
    };
  });
}

/** A row for one of the engine's own paths. */
export function engineRoute(method: HttpMethod, template: string, serve: RouteHandler): RouteEntry<EngineRoute> {
  return { method, template, route: { kind: 'engine', label: `${method} ${template}`, serve } };
}
