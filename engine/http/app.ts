// The Koa application: cross-cutting middleware, then the router (every catalog operation with the
// API steps of pipeline.ts, the engine's own paths without them), then the answers for what no route
// takes: a known path asked with a method it does not serve (405, with Allow), or an unknown path (404).
import Koa from 'koa';
import type { RouterMiddleware } from '@koa/router';
import { ApiError } from '../errors';
import type { Services } from '../services';
import { assertSecure } from './transport';
import { Router, safeParams, type Route } from './router';
import { apiSteps } from './pipeline';
import { renderErrors, requestLog, cors } from './middleware';
import { addEngineRoutes } from './extra-routes';
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

/** The router leaves a bare 405 or 501 (with Allow); it is answered in the spec's error body. */
const methodErrors: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.status === 405)
    ctx.body = new ApiError(
      'method_not_allowed',
      `${ctx.method} is not served on ${ctx.path}; it serves ${ctx.response.get('Allow')}.`,
      405,
    ).toBody();
  else if (ctx.status === 501)
    ctx.body = new ApiError('not_implemented', `The method ${ctx.method} is not served by this API.`, 501).toBody();
};

/** No route took the request. Answered, not thrown, so the router's method check still sees it. */
const unrecognizedEndpoint: Koa.Middleware = (ctx) => {
  const error = new ApiError(
    'unrecognized_endpoint',
    `The requested endpoint ${ctx.method} ${ctx.path} does not exist.`,
    404,
  );
  ctx.status = error.status;
  ctx.body = error.toBody();
};

export function createApp(services: Services): Koa {
  const { config } = services;
  const app = new Koa();
  // Koa reports here what fails after an answer began, such as a streamed file (`/assets`). A client
  // that goes away mid-download ends that stream early: its choice, not the engine's error to log.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (error?.code !== 'ERR_STREAM_PREMATURE_CLOSE') app.onerror(error);
  });
  const steps = apiSteps(services);
  const stackFor = (route: Route): RouterMiddleware[] =>
    route.kind === 'api'
      ? [steps(route)]
      : [
          (ctx) => {
            ctx.state.route = route.label;
            return route.serve(ctx, safeParams(ctx.params, ctx.captures ?? []));
          },
        ];
  const router = addEngineRoutes(new Router(), services).koaRouter(stackFor);

  app.use(requestLog(config.logLevel));
  app.use(renderErrors(config.logLevel));
  app.use(cors());
  app.use(transport(services));
  // before the router and every API step, so a refused request costs no key lookup and no body read
  app.use(admitUnderMemory(config.maxRssMb));
  app.use(methodErrors);
  app.use(router.allowedMethods());
  app.use(router.routes());
  app.use(unrecognizedEndpoint);
  return app;
}
