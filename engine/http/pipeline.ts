// The steps of one API route, in the order a request meets it (docs/ARCHITECTURE.md, "One request"):
// each takes what the step before it returned and returns what the next one takes, the request known
// a little more at each (Authenticated, Limited, Versioned, Queried, Parsed, Validated), until the
// handler runs. One function per route calls them in turn (a chain of Koa middlewares cost a tenth of a
// simple read's time in promises and closures); app.ts routes every catalog operation through it, the
// engine's own paths skip it.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import type { Static, TObject } from '@sinclair/typebox';
import { ApiError } from '../base/errors';
import { publishableSummary } from '../catalog';
import { pathParams } from '../catalog/paths';
import type { Caller } from '../domain/accounts/accounts';
import type { Services } from '../domain/services';
import type { Scope } from '../store/objects';
import type { IdempotencyClaim } from '../store/idempotency-keys';
import type { SendConfirmation } from '../domain/agents/confirmations';
import { signAssetLinks } from '../platform/assets/links';
import { authenticate } from './auth';
import { ProcessHitCounter, RateLimiter, rateHeaders, rateLimitExceeded, type RateState } from './rate-limit';
import { assertLiveAllowed, spendLiveAllowance } from './live-gates';
import { requestVersion, VERSION_HEADERS } from './version';
import { hideNewerFields, refuseNewerFields } from './versioned-fields';
import { withoutUnsetFields } from './unset-fields';
import { spliceStoredList } from './stored-list';
import { parseQuery } from './query';
import { assertSaneInput } from '../domain/validation/input-shape';
import { validate } from '../domain/validation/validate';
import type { OperationRequest } from './operation';
import { parseBody } from './body';
import { discardUploads, type UploadedFile } from './multipart';
import { IdempotencyStore, idempotencyKey } from './idempotency';
import { ListAnswers } from './list-answers';
import { requestOrigin } from './transport';
import type { ApiRoute } from './routes';
import type { RouteHandler } from './router';

/** A request the router matched to an API route. */
export interface Routed {
  route: ApiRoute;
  /** the path's named parameters, percent-decoded */
  params: Record<string, string>;
}

/** ... whose key names its account, mode and kind. */
export interface Authenticated extends Routed {
  caller: Caller;
}

/** ... counted in its key's rate window, within the limit (the live gate refuses, adding nothing). */
export interface Limited extends Authenticated {
  rate: RateState;
}

/** ... under the Service-Version in force. */
export interface Versioned extends Limited {
  version: string;
}

/** ... its path parameters bound by name, its query validated against the operation's; its Idempotency-Key. */
export interface Queried extends Versioned {
  query: Static<TObject>;
  idempotencyKey: string | undefined;
  /** the Printpost-Confirmation header of an operation that mails now (an agent's confirmed send) */
  confirmationToken: string | undefined;
}

/** ... its body read: fields, and uploads on disk (the route removes them once it has answered). */
export interface Parsed extends Queried {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

/** ... its body validated against the operation's schema and rules, the live allowance spent. */
export interface Validated extends Parsed {
  body: Static<TObject>;
  /** the confirmation token with the body as it was sent, before validation filled it in */
  confirmation: SendConfirmation | undefined;
}

/** The key: which account, which mode, secret or publishable (and what a publishable key may call). */
export function authenticateKey(services: Services): (ctx: Koa.Context, routed: Routed) => Promise<Authenticated> {
  const publishable = publishableSummary();
  return async (ctx, routed) => {
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind === 'publishable' && !routed.route.operation.publishable)
      throw new ApiError(
        'publishable_key_not_allowed',
        `This operation needs a secret API key: publishable keys may only call ${publishable}.`,
        403,
      );
    return { route: routed.route, params: routed.params, caller };
  };
}

/** Counts a caller's request to an endpoint (`label`) in its 5 s window; the API's limit per key. */
export type CallerRate = (caller: Caller, label: string, factor?: number) => Promise<RateState>;

/** Fixed 5 s windows per key and endpoint, shared by every process on PostgreSQL. */
export function callerRate(services: Services): CallerRate {
  const { config } = services;
  const shared =
    config.rateLimits === 'database' || (config.rateLimits === 'auto' && services.store.dialect === 'postgres');
  const limiter = new RateLimiter(shared ? services.store.sharedHitCounter() : new ProcessHitCounter());
  return (caller, label, factor = 1) =>
    limiter.hit(`${caller.keyHash} ${label}`, caller.account.settings.rate_limit_per_5s * factor);
}

/** Counts the request: 429 over the limit, else the window's headers on the answer. */
export async function admitRate(ctx: Koa.Context, rate: Promise<RateState>): Promise<RateState> {
  const state = await rate;
  if (state.exceeded) throw rateLimitExceeded(state);
  ctx.set(rateHeaders(state));
  return state;
}

export function limitRate(services: Services): (ctx: Koa.Context, request: Authenticated) => Promise<Limited> {
  const rateOf = callerRate(services);
  return async (ctx, request) => {
    const { operation, label } = request.route;
    const rate = await admitRate(ctx, rateOf(request.caller, label, operation.rateLimitFactor));
    return { ...request, rate };
  };
}

/** Live keys need a verified payment method (and e-mail, to create). */
export function liveGates(request: Limited): Limited {
  assertLiveAllowed(request.caller, request.route.operation);
  return request;
}

/** The Service-Version in force: the request's header, else the account's setting. */
export function serviceVersion(ctx: Koa.Context, request: Limited): Versioned {
  const header = VERSION_HEADERS.map((h) => ctx.get(h)).find(Boolean);
  return { ...request, version: requestVersion(header, request.caller.account.settings.service_version) };
}

/** The query in its three forms, bounded, validated against the operation's; the Idempotency-Key. */
export function queryString(ctx: Koa.Context, request: Versioned): Queried {
  const { operation } = request.route;
  const rawQuery = parseQuery(ctx.querystring);
  assertSaneInput(rawQuery, 'query');
  const { idempotency_key: _key, ...fields } = rawQuery;
  const params = pathParams(operation.path, request.params);
  const query = operation.query ? validate(operation.query, fields) : {};
  const key = operation.idempotent ? idempotencyKey(ctx.get('Idempotency-Key') || undefined, rawQuery) : undefined;
  const confirmationToken = operation.mails === 'now' ? ctx.get('Printpost-Confirmation') || undefined : undefined;
  return { ...request, params, query, idempotencyKey: key, confirmationToken };
}

/** JSON, form or multipart; uploads stream to disk (the route removes them once it has answered). */
export function requestBody(services: Services): (ctx: Koa.Context, request: Queried) => Promise<Parsed> {
  const { config } = services;
  const uploadDir = config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads');
  return async (ctx, request) => {
    const { operation } = request.route;
    if (operation.method !== 'POST' && operation.method !== 'PATCH') return { ...request, fields: {}, files: [] };
    const parsed = await parseBody(ctx.req, {
      maxBytes: config.maxBodyBytes,
      maxFileBytes: config.maxFileBytes,
      fileFields: operation.files ?? [],
      uploadDir,
    });
    // uploaded files join the body under their field names, so a required file field is present
    const fields = { ...parsed.fields, ...Object.fromEntries(parsed.files.map((file) => [file.field, file])) };
    return { ...request, fields, files: parsed.files };
  };
}

/** The body against the operation's schema and rules, then the live allowance it spends. */
export function validation(services: Services): (request: Parsed) => Promise<Validated> {
  return async (request) => {
    const { resource, operation } = request.route;
    refuseNewerFields(resource, request.fields, request.version);
    // the token confirms the arguments the agent previewed: the body as sent, copied before validation fills it
    const token = request.confirmationToken;
    const confirmation = token === undefined ? undefined : { token, payload: structuredClone(request.fields) };
    const body = operation.body ? validate(operation.body, request.fields, operation.rules) : {};
    await spendLiveAllowance(request.caller, operation, services);
    return { ...request, body, confirmation };
  };
}

/** The handler's request: written out, not spread, so every request has one object shape. */
function operationRequest(
  request: Validated,
  scope: Scope,
  url: string,
  services: Services,
  idempotency: IdempotencyClaim | undefined,
): OperationRequest {
  return {
    resource: request.route.resource,
    caller: request.caller,
    scope,
    files: request.files,
    version: request.version,
    url,
    services,
    idempotency,
    confirmation: request.confirmation,
    operation: request.route.operation,
    params: request.params,
    query: request.query,
    body: request.body,
  };
}

/** The handler, once per Idempotency-Key; the answer in the shape the version and the catalog say. */
export function handle(services: Services): (ctx: Koa.Context, request: Validated) => Promise<void> {
  const idempotency = new IdempotencyStore(services.store.idempotencyKeys, services.config.idempotencyLeaseMs);
  const listAnswers = new ListAnswers();
  return async (ctx, request) => {
    const { route, caller, version } = request;
    const scope: Scope = { accountId: caller.account.id, mode: caller.mode };
    const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
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
    const url = `${origin}${ctx.path}`;
    const key = request.idempotencyKey;
    const body = key
      ? await idempotency.once(scope, route.resource.name, key, async (claim) => ({
          status: 200,
          body: await route.served.run(operationRequest(request, scope, url, services, claim)),
        }))
      : { status: 200, body: await route.served.run(operationRequest(request, scope, url, services, undefined)) };
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

/** The handler of an API route: every step, in order; the request's uploads removed once it is answered. */
export function apiSteps(services: Services): (route: ApiRoute) => RouteHandler {
  const authenticated = authenticateKey(services);
  const limited = limitRate(services);
  const parsed = requestBody(services);
  const validated = validation(services);
  const handled = handle(services);
  return (route) => async (ctx, params) => {
    const allowed = liveGates(await limited(ctx, await authenticated(ctx, { route, params })));
    const request = await parsed(ctx, queryString(ctx, serviceVersion(ctx, allowed)));
    try {
      await handled(ctx, await validated(request));
    } finally {
      if (request.files.length) await discardUploads(request.files);
    }
  };
}
