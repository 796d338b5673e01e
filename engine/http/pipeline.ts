// The middleware of one API route, in the order a request meets it (docs/ARCHITECTURE.md, "One
// request"): each step reads what the steps before it put in `ctx.state.api` and adds its own part.
// app.ts registers the steps on every catalog route; the engine's own paths skip them.
import os from 'node:os';
import path from 'node:path';
import type { RouterContext, RouterMiddleware } from '@koa/router';
import { ApiError } from '../errors';
import { publishableSummary } from '../catalog';
import type { Caller } from '../accounts/accounts';
import type { Services } from '../services';
import type { Scope } from '../store/objects';
import { DatabaseHitCounter } from '../store/rate-windows';
import { signAssetLinks } from '../assets/links';
import { authenticate } from './auth';
import { ProcessHitCounter, RateLimiter, rateHeaders, rateLimitExceeded } from './rate-limit';
import { assertLiveAllowed, spendLiveAllowance } from './live-gates';
import { requestVersion, VERSION_HEADERS } from './version';
import { hideNewerFields, refuseNewerFields } from './versioned-fields';
import { withoutUnsetFields } from './unset-fields';
import { parseQuery } from './query';
import { assertSaneInput } from './input-shape';
import type { BoundQuery, RequestContext } from './operation';
import { parseBody } from './body';
import { discardUploads, type UploadedFile } from './multipart';
import { IdempotencyStore, idempotencyKey } from './idempotency';
import { requestOrigin } from './transport';
import { safeParams, type ApiRoute } from './router';

/** What the steps of an API route know of the request so far. */
export interface ApiState {
  route: ApiRoute;
  caller?: Caller;
  version?: string;
  /** the request bound to what serves it: path parameters, then the validated query */
  bound?: BoundQuery;
  idempotencyKey?: string;
  fields?: Record<string, unknown>;
  files?: UploadedFile[];
  /** the request, validated through and through, waiting for its context */
  run?: (context: RequestContext) => Promise<unknown>;
}

type Step = RouterMiddleware;

const stateOf = (ctx: RouterContext): ApiState => ctx.state.api as ApiState;

/** A step ran before the one that needs its part: a wiring mistake, not the client's. */
function needs<K extends keyof ApiState>(state: ApiState, key: K): NonNullable<ApiState[K]> {
  const value = state[key];
  if (value === undefined) throw new Error(`pipeline: ${String(key)} is read before it is set`);
  return value as NonNullable<ApiState[K]>;
}

/** Names the route for the steps after it and for the request log. */
export const routeIs =
  (route: ApiRoute): Step =>
  (ctx, next) => {
    ctx.state.route = route.label;
    ctx.state.api = { route } satisfies ApiState;
    ctx.params = safeParams(ctx.params, ctx.captures ?? []);
    return next();
  };

/** The key: which account, which mode, secret or publishable (and what a publishable key may call). */
export function authenticateKey(services: Services): Step {
  const publishable = publishableSummary();
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind === 'publishable' && !state.route.operation.publishable)
      throw new ApiError(
        'publishable_key_not_allowed',
        `This operation needs a secret API key: publishable keys may only call ${publishable}.`,
        403,
      );
    state.caller = caller;
    return next();
  };
}

/** Fixed 5 s windows per key and endpoint, shared by every process on PostgreSQL. */
export function limitRate(services: Services): Step {
  const { config } = services;
  const shared =
    config.rateLimits === 'database' || (config.rateLimits === 'auto' && services.db.dialect === 'postgres');
  const limiter = new RateLimiter(shared ? new DatabaseHitCounter(services.db.knex) : new ProcessHitCounter());
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const caller = needs(state, 'caller');
    const { operation, label } = state.route;
    const rate = await limiter.hit(
      `${caller.keyHash} ${label}`,
      caller.account.settings.rate_limit_per_5s * (operation.rateLimitFactor ?? 1),
    );
    if (rate.exceeded) throw rateLimitExceeded(rate);
    ctx.set(rateHeaders(rate));
    return next();
  };
}

/** Live keys need a verified payment method (and e-mail, to create). */
export const liveGates: Step = (ctx, next) => {
  const state = stateOf(ctx);
  assertLiveAllowed(needs(state, 'caller'), state.route.operation);
  return next();
};

/** The Service-Version in force: the request's header, else the account's setting. */
export const serviceVersion: Step = (ctx, next) => {
  const state = stateOf(ctx);
  const header = VERSION_HEADERS.map((h) => ctx.get(h)).find(Boolean);
  state.version = requestVersion(header, needs(state, 'caller').account.settings.service_version);
  return next();
};

/** The query in its three forms, bounded, validated against the operation's; the Idempotency-Key. */
export const queryString: Step = (ctx, next) => {
  const state = stateOf(ctx);
  const { operation } = state.route;
  const rawQuery = parseQuery(ctx.querystring);
  assertSaneInput(rawQuery, 'query');
  const { idempotency_key: _key, ...fields } = rawQuery;
  state.bound = state.route.served.bind(ctx.params).query(fields);
  if (operation.idempotent) state.idempotencyKey = idempotencyKey(ctx.get('Idempotency-Key') || undefined, rawQuery);
  return next();
};

/** JSON, form or multipart; uploads stream to disk and are removed once the request is answered. */
export function requestBody(services: Services): Step {
  const { config } = services;
  const uploadDir = config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads');
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const { operation } = state.route;
    if (operation.method !== 'POST' && operation.method !== 'PATCH') {
      state.fields = {};
      state.files = [];
      return next();
    }
    const parsed = await parseBody(ctx.req, {
      maxBytes: config.maxBodyBytes,
      maxFileBytes: config.maxFileBytes,
      fileFields: operation.files ?? [],
      uploadDir,
    });
    try {
      // uploaded files join the body under their field names, so a required file field is present
      state.fields = { ...parsed.fields, ...Object.fromEntries(parsed.files.map((file) => [file.field, file])) };
      state.files = parsed.files;
      await next();
    } finally {
      await discardUploads(parsed.files);
    }
  };
}

/** The body against the operation's schema and rules, then the live allowance it spends. */
export function validation(services: Services): Step {
  return async (ctx, next) => {
    const state = stateOf(ctx);
    const { resource, operation } = state.route;
    const fields = needs(state, 'fields');
    refuseNewerFields(resource, fields, needs(state, 'version'));
    state.run = needs(state, 'bound').body(fields);
    await spendLiveAllowance(needs(state, 'caller'), operation, services.db.knex);
    return next();
  };
}

/** The handler, once per Idempotency-Key; the answer in the shape the version and the catalog say. */
export function handle(services: Services): Step {
  const idempotency = new IdempotencyStore(services.db.knex, services.config.idempotencyLeaseMs);
  return async (ctx) => {
    const state = stateOf(ctx);
    const { route } = state;
    const caller = needs(state, 'caller');
    const version = needs(state, 'version');
    const scope: Scope = { accountId: caller.account.id, mode: caller.mode };
    const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
    const run = needs(state, 'run');
    const context: RequestContext = {
      resource: route.resource,
      caller,
      scope,
      files: needs(state, 'files'),
      version,
      url: `${origin}${ctx.path}`,
      services,
    };
    const key = state.idempotencyKey;
    const body = key
      ? await idempotency.once(scope, route.resource.name, key, async (claim) => ({
          status: 200,
          body: await run({ ...context, idempotency: claim }),
        }))
      : { status: 200, body: await run(context) };
    ctx.status = body.status;
    const answer = withoutUnsetFields(route.resource, hideNewerFields(route.resource, body.body, version));
    ctx.body = signAssetLinks(route.resource, answer, { signer: services.signer, origin });
  };
}

/** Every step of an API route, in order. */
export function apiSteps(services: Services): (route: ApiRoute) => Step[] {
  const shared = [
    authenticateKey(services),
    limitRate(services),
    liveGates,
    serviceVersion,
    queryString,
    requestBody(services),
    validation(services),
    handle(services),
  ];
  return (route) => [routeIs(route), ...shared];
}
