// Routes are found by walking the catalog: every operation's method and path template.
import { allOperations } from '../catalog';
import type { HttpMethod, Operation, Resource } from '../catalog/types';
import { handlerFor } from './handlers';
import type { Handler } from './operation';

export interface Route {
  resource: Resource;
  operation: Operation;
  handler: Handler;
  /** `POST /v1/addresses`: the rate-limit bucket and log label */
  label: string;
}

interface CompiledRoute extends Route {
  method: HttpMethod;
  pattern: RegExp;
}

export interface RouteMatch {
  route: Route;
  id?: string;
}

export class Router {
  private readonly routes: CompiledRoute[];

  constructor() {
    this.routes = allOperations().map(({ resource, operation }) => {
      const handler = handlerFor(resource, operation);
      if (!handler) throw new Error(`no handler for ${resource.name}.${operation.name}`);
      const pattern = new RegExp(`^${operation.path.replace(/\{id\}/g, '([^/]+)')}/?$`);
      return { resource, operation, handler, method: operation.method, pattern, label: `${operation.method} ${operation.path}` };
    });
  }

  match(method: string, path: string): RouteMatch | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const found = route.pattern.exec(path);
      if (found) return { route, id: found[1] === undefined ? undefined : decodeURIComponent(found[1]) };
    }
    return undefined;
  }
}
