// Webhooks as the API keeps them: the endpoint, the event types it takes and its signing secret, stored
// with the object and shown once, in the create answer. A URL delivery would never reach (a loopback,
// private or link-local address, or a name resolving to one, unless the operator allows its network)
// is refused at create and update; names are resolved and checked again at each delivery.
import { isIP } from 'node:net';
import { ApiError, notFound } from '../../base/errors';
import { allEventTypes, eventOf } from '../../catalog';
import type { BodyOf } from '../../catalog/types';
import { webhooks, WILDCARD, type webhookOperations } from '../../catalog/webhooks';
import { checkedAddress, FetchRefused } from '../../platform/net/guarded-fetch';
import { parseNetworks, refusedRange } from '../../platform/net/private-networks';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { newWebhookSecret } from '../../protocol/webhook-signature';

type RotateBody = BodyOf<typeof webhookOperations.rotateSecret>;

type CreateBody = BodyOf<typeof webhookOperations.create>;
type UpdateBody = BodyOf<typeof webhookOperations.update>;

/** The webhook as answered after its create: everything but its secrets. */
export function publicWebhook<T>(value: T): T | Omit<T & object, 'secret' | 'previous_secret'> {
  if (typeof value !== 'object' || value === null || !('secret' in value)) return value;
  const {
    secret: _secret,
    previous_secret: _previous,
    ...shown
  } = value as T & {
    secret: unknown;
    previous_secret?: unknown;
  };
  return shown;
}

function assertEventTypes(types: readonly string[] | undefined): void {
  if (!types) return;
  const known = new Set([WILDCARD, ...allEventTypes()]);
  const unknown = types.find((t) => !known.has(t));
  if (unknown)
    throw new ApiError(
      'invalid',
      `event_types names ${unknown}, which is not an event type (e.g. postcard.created, letter.delivered; * for all)`,
      422,
    );
}

/** Names that never resolve in public DNS (RFC 6761): refused when they do not resolve here either. */
const NEVER_PUBLIC = /(^|\.)(invalid|test|example|localhost|local)$|^[^.]+$/i;
/** How long a create or update waits for the URL's name to resolve. */
const LOOKUP_MS = 3_000;

const refusal = (why: string) =>
  new ApiError(
    'invalid',
    `url ${why}: webhooks are not delivered there unless the operator allows its network with ALLOWED_PRIVATE_NETWORKS`,
    422,
  );

/**
 * Refuses a URL delivery would never reach, checked as delivery checks it (engine/platform/net): an address on
 * a loopback, private or link-local network not allowed, or a name resolving to one (`localhost` as
 * the resolver answers it, as for delivery). A name that does not resolve is refused only when it never
 * could publicly (one label, or a reserved domain such as .invalid or .test); any other is taken, since
 * DNS can be down for a moment or the receiver not published yet, and each delivery resolves it again.
 */
async function assertDeliverable(url: string | undefined, allowed: ReadonlySet<string>): Promise<void> {
  if (!url) return;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  } catch {
    throw new ApiError('invalid', 'url must be an http(s) URL', 422);
  }
  const networks = parseNetworks(allowed);
  if (isIP(host)) {
    const range = refusedRange(host, networks);
    if (range) throw refusal(`is on a ${range} address`);
    return;
  }
  try {
    await checkedAddress(host, networks, AbortSignal.timeout(LOOKUP_MS));
  } catch (error) {
    if (!(error instanceof FetchRefused)) return; // the lookup took too long: delivery checks it again
    if (error.reason === 'private_network')
      throw refusal(
        `names ${host}, which ${error.message.replace(/^\S+ /, '').replace(/, which is not fetched$/, '')}`,
      );
    if (NEVER_PUBLIC.test(host)) throw refusal(`names ${host}, which does not resolve (and no public name ends so)`);
  }
}

/**
 * `webhook.disabled`, committed with the change that disables an enabled webhook: the webhook as the
 * API shows it (no secrets), with why; the dispatcher sends it only to enabled webhooks, so never to
 * the one it names. `why` is the engine's reason, or, for an update, that an update disabled it.
 */
const disabledEvent = (why: (current: ApiObject) => string) => (current: ApiObject) =>
  current.enabled === false
    ? undefined
    : [
        {
          ...eventOf(webhooks, 'disabled'),
          shows: ({ secret: _secret, previous_secret: _previous, ...shown }: ApiObject): ApiObject => ({
            ...shown,
            disabled_reason: why(shown),
          }),
        },
      ];

/** The webhook as the engine disables it after failing too long: the reason kept on it, `webhook.disabled` with it. */
export async function disableWebhook(services: Services, scope: Scope, id: string, reason: string): Promise<void> {
  await services.objects.transition(scope, webhooks.name, id, {
    change: (current) => ({ ...current, enabled: false, disabled_reason: reason }),
    eventsWhen: disabledEvent(() => reason),
  });
}

const BY_UPDATE = 'disabled by an update (enabled: false)';

export async function createWebhook(
  services: Services,
  scope: Scope,
  body: CreateBody,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  assertEventTypes(body.event_types);
  await assertDeliverable(body.url, services.config.allowedPrivateNetworks);
  const now = nowIso();
  const object: ApiObject = {
    id: newId(webhooks.idPrefix),
    url: body.url,
    event_types: body.event_types,
    description: body.description ?? null,
    enabled: body.enabled ?? true,
    disabled_reason: null,
    metadata: body.metadata ?? {},
    secret: newWebhookSecret(),
    date_created: now,
    date_modified: now,
    object: webhooks.object,
  };
  await services.objects.insert(scope, webhooks.name, object, { claim });
  return object;
}

export async function updateWebhook(services: Services, scope: Scope, id: string, body: UpdateBody): Promise<object> {
  assertEventTypes(body.event_types);
  await assertDeliverable(body.url, services.config.allowedPrivateNetworks);
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  // enabling clears why the engine disabled it; its failed deliveries can then be replayed
  const cleared = body.enabled === true ? { disabled_reason: null } : {};
  const updated = await services.objects.transition(scope, webhooks.name, id, {
    change: (current) => ({ ...current, ...given, ...cleared }),
    eventsWhen: body.enabled === false ? disabledEvent((o) => String(o.disabled_reason ?? BY_UPDATE)) : undefined,
  });
  if (!updated) throw notFound('webhook');
  return publicWebhook(updated);
}

/**
 * A new secret, answered once (as create answers the first); the one it replaces keeps signing beside it
 * for `expires_in_hours` (engine/protocol/webhook-signature.ts, `signedHeaders`). A rotation during an
 * overlap ends the older secret at once: at most two sign.
 */
export async function rotateWebhookSecret(
  services: Services,
  scope: Scope,
  id: string,
  body: RotateBody,
): Promise<ApiObject> {
  const hours = body.expires_in_hours ?? 24;
  const secret = newWebhookSecret();
  const updated = await services.objects.transition(scope, webhooks.name, id, {
    change: (current) => {
      const until = Date.now() + hours * 3_600_000;
      const overlap = hours > 0 && typeof current.secret === 'string';
      return {
        ...current,
        secret,
        previous_secret: overlap ? current.secret : null,
        previous_secret_expires_at: overlap ? new Date(until).toISOString() : null,
      };
    },
  });
  if (!updated) throw notFound('webhook');
  const { previous_secret: _previous, ...shown } = updated;
  return { ...shown, secret };
}

/**
 * Queues the webhook's failed deliveries again: all of them, or the one of event `eventId`. A disabled
 * webhook must be enabled first, so nothing is queued only to be set aside again.
 */
export async function replayDeliveries(
  services: Services,
  scope: Scope,
  webhookId: string,
  eventId?: string,
): Promise<{ queued: number; object: 'webhook_replay' }> {
  const hook = await services.objects.get(scope, webhooks.name, webhookId);
  if (!hook) throw notFound('webhook');
  if (hook.enabled === false)
    throw new ApiError('invalid', `webhook ${webhookId} is disabled: enable it (enabled: true) before a replay`, 422);
  if (eventId !== undefined) {
    const state = await services.store.webhookFailures.deliveryStateOf(scope, webhookId, eventId);
    if (state === undefined) throw notFound('webhook delivery');
    if (state !== 'failed')
      throw new ApiError('invalid', `the delivery of ${eventId} is ${state}: only a failed delivery is replayed`, 422);
  }
  return { queued: await services.store.webhookFailures.replayFailed(webhookId, eventId), object: 'webhook_replay' };
}
