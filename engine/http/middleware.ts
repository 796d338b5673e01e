// Cross-cutting middleware: the single place a Koa request's error is rendered (raw-answers.ts answers
// what Node stops before Koa), request logs, CORS.
import type { EngineMetrics } from '../platform/metrics';
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import type { EngineConfig } from '../platform/config';
import { VERSION_HEADERS } from './version';
import { stackOf } from '../base/thrown';

type Middleware = Koa.Middleware;

export function renderErrors(logLevel: EngineConfig['logLevel']): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error =
        caught instanceof ApiError
          ? caught
          : new ApiError('internal_server_error', 'An internal error occurred. Please try again.', 500);
      if (!(caught instanceof ApiError) && logLevel !== 'silent') {
        process.stderr.write(
          `${JSON.stringify({ level: 'error', method: ctx.method, path: ctx.path, error: stackOf(caught) })}\n`,
        );
      }
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.body = error.toBody();
    }
  };
}

/** One JSON line a request at `info`; quiet otherwise. */
export function requestLog(logLevel: EngineConfig['logLevel']): Middleware {
  if (logLevel !== 'info') return (_ctx, next) => next();
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      process.stdout.write(
        `${JSON.stringify({ time: new Date().toISOString(), method: ctx.method, path: ctx.path, route: ctx.state.route, status: ctx.status, ms: Math.round(ms * 10) / 10 })}\n`,
      );
    }
  };
}

/** `path` is `prefix` or below it. */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Publishable keys are meant for browsers: allow cross-origin calls, except on `closed` paths, which
 * no page of another origin has any business reading (GET /metrics, the MCP endpoint, the dashboard):
 * they carry no CORS header, and a preflight there is not answered here, so it grants nothing.
 */
export function cors(closed: readonly string[]): Middleware {
  return async (ctx, next) => {
    if (closed.some((prefix) => under(ctx.path, prefix))) return next();
    ctx.set('Access-Control-Allow-Origin', '*');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'GET, POST, PATCH, DELETE, OPTIONS');
      ctx.set(
        'Access-Control-Allow-Headers',
        ['Authorization', 'Content-Type', 'Idempotency-Key', ...VERSION_HEADERS].join(', '),
      );
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}

/** Counts and times every answer for GET /metrics, by route template (bounded), never by raw path. */
export function measureRequests(metrics: EngineMetrics): Middleware {
  return async (ctx, next) => {
    const start = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = typeof ctx.state.route === 'string' ? ctx.state.route : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      metrics.requests.inc({ method: ctx.method, route, status: String(ctx.status) });
      metrics.requestSeconds.observe({ method: ctx.method, route }, seconds);
      if (ctx.status === 429) metrics.rateLimited.inc();
    }
  };
}
