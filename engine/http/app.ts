// The Koa application: one pipeline for every catalog operation
// (transport -> route -> auth -> rate limit -> live gates -> version -> query -> body -> validation ->
// idempotency -> handler). Uploads live on disk for the request's lifetime only.
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { ApiError } from '../errors';
import { publishableSummary } from '../catalog';
import type { Services } from '../services';
import { assertSecure, requestOrigin } from './transport';
import { authenticate } from './auth';
import { ProcessHitCounter, RateLimiter, rateHeaders, rateLimitExceeded } from './rate-limit';
import { DatabaseHitCounter } from '../store/rate-windows';
import { requestVersion, VERSION_HEADERS } from './version';
import { hideNewerFields, refuseNewerFields } from './versioned-fields';
import { withoutUnsetFields } from './unset-fields';
import { parseBody, type ParsedBody } from './body';
import { discardUploads } from './multipart';
import { parseQuery } from './query';
import { assertSaneInput } from './input-shape';
import { validate } from './validate';
import { IdempotencyStore, idempotencyKey } from './idempotency';
import { Router } from './router';
import { assertLiveAllowed, spendLiveAllowance } from './live-gates';
import { renderErrors, requestLog, cors } from './middleware';
import { addEngineRoutes } from './extra-routes';
import { signAssetLinks } from '../assets/links';

export function createApp(services: Services): Koa {
  const { config } = services;
  const publishable = publishableSummary();
  const app = new Koa();
  const router = addEngineRoutes(new Router(), services);
  const shared =
    config.rateLimits === 'database' || (config.rateLimits === 'auto' && services.db.dialect === 'postgres');
  const limiter = new RateLimiter(shared ? new DatabaseHitCounter(services.db.knex) : new ProcessHitCounter());
  const idempotency = new IdempotencyStore(services.db.knex, config.idempotencyLeaseMs);
  const uploadDir = config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads');

  const serve: Koa.Middleware = async (ctx) => {
    const { req } = ctx;
    // Node no longer answers a missing Host itself (its answer has no body): HTTP/1.1 requires one.
    if (!req.headers.host && req.httpVersionMajor === 1 && req.httpVersionMinor >= 1) {
      throw new ApiError('invalid', 'HTTP/1.1 requests must carry a Host header.', 400);
    }
    assertSecure(req, config.trustedProxies);
    const match = router.match(ctx.method, ctx.path);
    if (!match)
      throw new ApiError(
        'unrecognized_endpoint',
        `The requested endpoint ${ctx.method} ${ctx.path} does not exist.`,
        404,
      );
    const { route, params } = match;
    if (route.kind === 'engine') return route.serve(ctx, params);
    const { operation } = route;
    ctx.state.route = route.label;

    const caller = await authenticate(req, services.accounts);
    if (caller.kind === 'publishable' && !operation.publishable) {
      throw new ApiError(
        'publishable_key_not_allowed',
        `This operation needs a secret API key: publishable keys may only call ${publishable}.`,
        403,
      );
    }
    const settings = caller.account.settings;
    const rate = await limiter.hit(
      `${caller.keyHash} ${route.label}`,
      settings.rate_limit_per_5s * (operation.rateLimitFactor ?? 1),
    );
    if (rate.exceeded) throw rateLimitExceeded(rate);
    ctx.set(rateHeaders(rate));
    assertLiveAllowed(caller, operation);
    const version = requestVersion(VERSION_HEADERS.map((h) => ctx.get(h)).find(Boolean), settings.service_version);

    const rawQuery = parseQuery(ctx.querystring);
    assertSaneInput(rawQuery, 'query');
    const { idempotency_key: _ignored, ...queryFields } = rawQuery;
    const query = operation.query ? validate(operation.query, queryFields) : queryFields;
    const key = operation.idempotent ? idempotencyKey(ctx.get('Idempotency-Key') || undefined, rawQuery) : undefined;
    const parsed: ParsedBody =
      operation.method === 'POST' || operation.method === 'PATCH'
        ? await parseBody(req, {
            maxBytes: config.maxBodyBytes,
            maxFileBytes: config.maxFileBytes,
            fileFields: operation.files ?? [],
            uploadDir,
          })
        : { fields: {}, files: [] };
    try {
      // Uploaded files join the body under their field names, so a required file field is present.
      const fields = { ...parsed.fields, ...Object.fromEntries(parsed.files.map((file) => [file.field, file])) };
      refuseNewerFields(route.resource, fields, version);
      const body = operation.body ? validate(operation.body, fields, operation.rules) : fields;
      await spendLiveAllowance(caller, operation, services.db.knex);
      const scope = { accountId: caller.account.id, mode: caller.mode };
      const origin = requestOrigin(req, config.trustedProxies, config.publicUrl);
      const url = `${origin}${ctx.path}`;
      const request = {
        resource: route.resource,
        operation,
        caller,
        scope,
        params,
        id: params.id,
        body,
        query,
        files: parsed.files,
        version,
        url,
        services,
      };
      const response = key
        ? await idempotency.once(scope, route.resource.name, key, async (claim) => ({
            status: 200,
            body: await route.handler({ ...request, idempotency: claim }),
          }))
        : { status: 200, body: await route.handler(request) };
      ctx.status = response.status;
      const answer = withoutUnsetFields(route.resource, hideNewerFields(route.resource, response.body, version));
      ctx.body = signAssetLinks(route.resource, answer, { signer: services.signer, origin });
    } finally {
      discardUploads(parsed.files);
    }
  };

  app.use(requestLog(config.logLevel));
  app.use(renderErrors(config.logLevel));
  app.use(cors());
  app.use(serve);
  return app;
}
