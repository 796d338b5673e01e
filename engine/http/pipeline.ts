// The steps of one API route, in the order a request meets it (docs/ARCHITECTURE.md, "One request"):
// each reads what the steps before it put in the route's state and adds its own part. One middleware
// per route runs them in turn (a chain of Koa middlewares cost a tenth of a simple read's time in
// promises and closures); app.ts registers it on every catalog route, the engine's own paths skip it.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import { publishableSummary } from '../catalog';
import type { Caller } from '../domain/accounts/accounts';
import type { Services } from '../domain/services';
import type { Scope } from '../store/objects';
import { signAssetLinks } from '../platform/assets/links';
import { authenticate } from './auth';
import { ProcessHitCounter, RateLimiter, rateHeaders, rateLimitExceeded } from './rate-limit';
import { assertLiveAllowed, spendLiveAllowance } from './live-gates';
import { requestVersion, VERSION_HEADERS } from './version';
import { hideNewerFields, refuseNewerFields } from './versioned-fields';
import { withoutUnsetFields } from './unset-fields';
import { spliceStoredList } from './stored-list';
import { parseQuery } from './query';
import { assertSaneInput } from '../domain/validation/input-shape';
import type { BoundQuery, RequestContext } from './operation';
import { parseBody } from './body';
import { discardUploads, type UploadedFile } from './multipart';
import { IdempotencyStore, idempotencyKey } from './idempotency';
import { ListAnswers } from './list-answers';
import { requestOrigin } from './transport';
import type { ApiRoute, RouteHandler } from './router';

/** What the steps of an API route know of the request so far. */
export interface ApiState {
  route: ApiRoute;
  /** the path's named parameters, percent-decoded */
  params: Record<string, string>;
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

/** A step: it throws to refuse the request, and returns once its part is in `state`. */
type Step = (ctx: Koa.Context, state: ApiState) => void | Promise<void>;

/** A step ran before the one that needs its part: a wiring mistake, not the client's. */
function needs<K extends keyof ApiState>(state: ApiState, key: K): NonNullable<ApiState[K]> {
  const value = state[key];
  if (value === undefined) throw new Error(`pipeline: ${String(key)} is read before it is set`);
  return value as NonNullable<ApiState[K]>;
}

/** Names the route for the request log. */
const routeIs: Step = (ctx, state) => {
  ctx.state.route = state.route.label;
};

/** The key: which account, which mode, secret or publishable (and what a publishable key may call). */
export function authenticateKey(services: Services): Step {
  const publishable = publishableSummary();
  return async (ctx, state) => {
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind === 'publishable' && !state.route.operation.publishable)
      throw new ApiError(
        'publishable_key_not_allowed',
        `This operation needs a secret API key: publishable keys may only call ${publishable}.`,
        403,
      );
    state.caller = caller;
  };
}

/** Fixed 5 s windows per key and endpoint, shared by every process on PostgreSQL. */
export function limitRate(services: Services): Step {
  const { config } = services;
  const shared =
    config.rateLimits === 'database' || (config.rateLimits === 'auto' && services.store.dialect === 'postgres');
  const limiter = new RateLimiter(shared ? services.store.sharedHitCounter() : new ProcessHitCounter());
  return async (ctx, state) => {
    const caller = needs(state, 'caller');
    const { operation, label } = state.route;
    const rate = await limiter.hit(
      `${caller.keyHash} ${label}`,
      caller.account.settings.rate_limit_per_5s * (operation.rateLimitFactor ?? 1),
    );
    if (rate.exceeded) throw rateLimitExceeded(rate);
    ctx.set(rateHeaders(rate));
  };
}

/** Live keys need a verified payment method (and e-mail, to create). */
export const liveGates: Step = (_ctx, state) => {
  assertLiveAllowed(needs(state, 'caller'), state.route.operation);
};

/** The Service-Version in force: the request's header, else the account's setting. */
export const serviceVersion: Step = (ctx, state) => {
  const header = VERSION_HEADERS.map((h) => ctx.get(h)).find(Boolean);
  state.version = requestVersion(header, needs(state, 'caller').account.settings.service_version);
};

/** The query in its three forms, bounded, validated against the operation's; the Idempotency-Key. */
export const queryString: Step = (ctx, state) => {
  const { operation } = state.route;
  const rawQuery = parseQuery(ctx.querystring);
  assertSaneInput(rawQuery, 'query');
  const { idempotency_key: _key, ...fields } = rawQuery;
  state.bound = state.route.served.bind(state.params).query(fields);
  if (operation.idempotent) state.idempotencyKey = idempotencyKey(ctx.get('Idempotency-Key') || undefined, rawQuery);
};

/** JSON, form or multipart; uploads stream to disk (the route removes them once it has answered). */
export function requestBody(services: Services): Step {
  const { config } = services;
  const uploadDir = config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads');
  return async (ctx, state) => {
    const { operation } = state.route;
    if (operation.method !== 'POST' && operation.method !== 'PATCH') {
      state.fields = {};
      state.files = [];
      return;
    }
    const parsed = await parseBody(ctx.req, {
      maxBytes: config.maxBodyBytes,
      maxFileBytes: config.maxFileBytes,
      fileFields: operation.files ?? [],
      uploadDir,
    });
    state.files = parsed.files;
    // uploaded files join the body under their field names, so a required file field is present
    state.fields = { ...parsed.fields, ...Object.fromEntries(parsed.files.map((file) => [file.field, file])) };
  };
}

/** The body against the operation's schema and rules, then the live allowance it spends. */
export function validation(services: Services): Step {
  return async (_ctx, state) => {
    const { resource, operation } = state.route;
    const fields = needs(state, 'fields');
    refuseNewerFields(resource, fields, needs(state, 'version'));
    state.run = needs(state, 'bound').body(fields);
    await spendLiveAllowance(needs(state, 'caller'), operation, services);
  };
}

/** The handler, once per Idempotency-Key; the answer in the shape the version and the catalog say. */
export function handle(services: Services): Step {
  const idempotency = new IdempotencyStore(services.store.idempotencyKeys, services.config.idempotencyLeaseMs);
  const listAnswers = new ListAnswers();
  return async (ctx, state) => {
    const { route } = state;
    const caller = needs(state, 'caller');
    const version = needs(state, 'version');
    const scope: Scope = { accountId: caller.account.id, mode: caller.mode };
    const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
    const run = needs(state, 'run');
    // a list page is answered from the cache while nothing was committed since it was read; the stamp
    // is taken before the read, so a page is never kept under a stamp older than what it shows
    const stamp =
      route.operation.name === 'list' && ListAnswers.keeps(route.resource) ? services.objects.changeStamp() : undefined;
    const kept =
      stamp === undefined
        ? undefined
        : {
            stamp,
            key: ListAnswers.keyOf({ ...scope, version, origin, path: ctx.path, querystring: ctx.querystring }),
          };
    const hit = kept && listAnswers.get(kept.key, kept.stamp);
    if (hit !== undefined) {
      ctx.status = 200;
      ctx.type = 'json';
      ctx.body = hit;
      return;
    }
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
    const spliced = spliceStoredList(route.resource, body.body, version);
    if ('text' in spliced) {
      if (kept) listAnswers.set(kept.key, kept.stamp, spliced.text);
      ctx.type = 'json';
      ctx.body = spliced.text;
      return;
    }
    const answer = withoutUnsetFields(route.resource, hideNewerFields(route.resource, spliced.answer, version));
    const signed = signAssetLinks(route.resource, answer, { signer: services.signer, origin });
    if (kept) {
      const text = JSON.stringify(signed);
      listAnswers.set(kept.key, kept.stamp, text);
      ctx.type = 'json';
      ctx.body = text;
    } else ctx.body = signed;
  };
}

/** The middleware of an API route: every step, in order; the request's uploads removed once it is answered. */
export function apiSteps(services: Services): (route: ApiRoute) => RouteHandler {
  const steps: Step[] = [
    routeIs,
    authenticateKey(services),
    limitRate(services),
    liveGates,
    serviceVersion,
    queryString,
    requestBody(services),
    validation(services),
    handle(services),
  ];
  return (route) => async (ctx, params) => {
    const state: ApiState = { route, params };
    ctx.state.api = state;
    try {
      for (const step of steps) {
        const pending = step(ctx, state);
        if (pending) await pending;
      }
    } finally {
      if (state.files?.length) await discardUploads(state.files);
    }
  };
}
