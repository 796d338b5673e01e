// The Koa application: cross-cutting middleware, then the router over the table filled here (every
// catalog operation with the API steps of pipeline.ts, the engine's own paths without them; what no
// route takes is its 404 or 405 in the spec's error body).
import Koa from 'koa';
import { ApiError } from '../base/errors';
import type { Services } from '../domain/services';
import { assertSecure } from './transport';
import { Router, type RouteEntry, type RouteHandler } from './router';
import { apiRoutes, type Route } from './routes';
import { apiSteps } from './pipeline';
import { renderErrors, requestLog, cors, measureRequests } from './middleware';
import { engineRoutes, METRICS_PATH } from './extra-routes';
import { admitUnderMemory } from './memory-admission';

/** Plain HTTP only from loopback or a trusted proxy; HTTP/1.1 needs its Host header. */
function transport(services: Services): Koa.Middleware {
  return (ctx, next) => {
    const { req } = ctx;
    // Node no longer answers a missing Host itself (its answer has no body): HTTP/1.1 requires one.
    if (!req.headers.host && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1)
      throw new ApiError('invalid', 'HTTP/1.1 requests must carry a Host header.', 400);
    assertSecure(req, services.config.trustedProxies);
    return next();
  };
}

/**
 * `before`: the faces' own middleware ahead of the router (the MCP endpoint, engine/faces/mcp/http.ts);
 * `withoutCors`: the paths of theirs that are not for browsers of other origins.
 */
export function createApp(
  services: Services,
  before: readonly Koa.Middleware[] = [],
  withoutCors: readonly string[] = [],
): Koa {
  const { config } = services;
  const app = new Koa();
  // Koa reports here what fails after an answer began, such as a streamed file (`/assets`). A client
  // that goes away mid-download ends that stream early: its choice, not the engine's error to log.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error?.code !== 'ERR_STREAM_PREMATURE_CLOSE') app.onerror(error);
  });
  // the route table: every catalog operation, then the engine's own paths
  const table: RouteEntry<Route>[] = [...apiRoutes(), ...engineRoutes(services)];
  const steps = apiSteps(services);
  const handlerOf = (route: Route): RouteHandler => (route.kind === 'api' ? steps(route) : route.serve);

  // outermost, so what it counts is what the client got (errors rendered included)
  app.use(measureRequests(services.metrics));
  app.use(requestLog(config.logLevel));
  app.use(renderErrors(config.logLevel));
  app.use(cors([METRICS_PATH, ...withoutCors]));
  app.use(transport(services));
  // before the router and every API step, so a refused request costs no key lookup and no body read
  app.use(admitUnderMemory(config.maxRssMb));
  for (const middleware of before) app.use(middleware);
  app.use(new Router(table).middleware(handlerOf));
  return app;
}
