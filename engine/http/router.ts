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
      if (!found) continue;
      if (found[1] === undefined) return { route };
      // An id that is not valid percent-encoding, or decodes to a NUL, names nothing: looked up as
      // written it is a 404 like any unknown id (and never reaches a database that refuses NULs).
      const id = safeDecode(found[1]);
      return { route, id: id !== undefined && !id.includes('\u0000') ? id : found[1] };
    }
    return undefined;
  }
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
