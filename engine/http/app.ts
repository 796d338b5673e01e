// The Koa application: one pipeline for every catalog operation
// (transport -> route -> auth -> rate limit -> live gates -> version -> body -> validation -> idempotency -> handler).
import Koa from 'koa';
import { ApiError } from '../errors';
import type { Services } from '../services';
import { assertSecure, requestOrigin } from './transport';
import { authenticate } from './auth';
import { RateLimiter, rateHeaders, rateLimitExceeded } from './rate-limit';
import { requestVersion, VERSION_HEADERS } from './version';
import { parseBody } from './body';
import { parseQuery } from './query';
import { validate } from './validate';
import { IdempotencyStore, idempotencyKey } from './idempotency';
import { Router } from './router';
import { assertLiveAllowed, spendLiveAllowance } from './live-gates';
import { renderErrors, requestLog, cors } from './middleware';
import { extraRoutes } from './extra-routes';

export function createApp(services: Services): Koa {
  const app = new Koa();
  const router = new Router();
  const limiter = new RateLimiter();
  const idempotency = new IdempotencyStore(services.db.knex);
  const extras = extraRoutes(services);

  app.use(requestLog(services.config.logLevel));
  app.use(renderErrors(services.config.logLevel));
  app.use(cors());
  app.use(async (ctx) => {
    assertSecure(ctx.req, services.config.trustedProxies);
    const extra = extras[`${ctx.method} ${ctx.path}`];
    if (extra) return extra(ctx);
    const match = router.match(ctx.method, ctx.path);
    if (!match) throw new ApiError('unrecognized_endpoint', `The requested endpoint ${ctx.method} ${ctx.path} does not exist.`, 404);
    const { route } = match;
    ctx.state.route = route.label;

    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind === 'publishable' && !route.operation.publishable) {
      throw new ApiError('publishable_key_not_allowed', 'This operation needs a secret API key: publishable keys may only call US verification, international verification and US autocomplete.', 403);
    }
    const settings = caller.account.settings;
    const rate = limiter.hit(`${caller.keyHash} ${route.label}`, settings.rate_limit_per_5s * (route.operation.rateLimitFactor ?? 1));
    ctx.set(rateHeaders(rate));
    if (rate.exceeded) throw rateLimitExceeded();
    assertLiveAllowed(caller, route.operation);
    const version = requestVersion(VERSION_HEADERS.map((h) => ctx.get(h)).find(Boolean), settings.service_version);

    const rawQuery = parseQuery(ctx.querystring);
    const { idempotency_key: _ignored, ...queryFields } = rawQuery;
    const query = route.operation.query ? validate(route.operation.query, queryFields) : queryFields;
    const parsed = route.operation.method === 'POST' || route.operation.method === 'PATCH'
      ? await parseBody(ctx.req, { maxBytes: services.config.maxBodyBytes, maxFileBytes: services.config.maxFileBytes, fileFields: route.operation.files ?? [] })
      : { fields: {}, files: [] };
    const body = route.operation.body ? validate(route.operation.body, parsed.fields, route.operation.rules) : parsed.fields;

    await spendLiveAllowance(caller, route.operation, services.db.knex);
    const scope = { accountId: caller.account.id, mode: caller.mode };
    const key = route.operation.idempotent ? idempotencyKey(ctx.get('Idempotency-Key') || undefined, rawQuery) : undefined;
    const run = async () => ({ status: 200, body: await route.handler({
      resource: route.resource,
      operation: route.operation,
      caller,
      scope,
      id: match.id,
      body,
      query,
      files: parsed.files,
      version,
      url: `${requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl)}${ctx.path}`,
      services,
    }) });
    const response = key ? await idempotency.once(scope, route.resource.name, key, run) : await run();
    ctx.status = response.status;
    ctx.body = response.body;
  });
  return app;
}
