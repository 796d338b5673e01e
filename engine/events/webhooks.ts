// Webhooks as the API keeps them: the endpoint, the event types it takes and its signing secret, stored
// with the object and shown once, in the create answer. A URL whose host is a loopback, private or
// link-local address is refused at once unless the operator allows its network (names are checked
// again, resolved, at each delivery).
import { isIP } from 'node:net';
import { ApiError, notFound } from '../errors';
import { allEventTypes } from '../catalog';
import type { BodyOf } from '../catalog/types';
import { webhooks, WILDCARD, type webhookOperations } from '../catalog/webhooks';
import { parseNetworks, refusedRange } from '../net/private-networks';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../store/objects';
import type { IdempotencyClaim } from '../store/idempotency-keys';
import { newId } from '../util/ids';
import { nowIso } from '../util/time';
import { newWebhookSecret } from './signing';

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

function assertReachable(url: string | undefined, allowed: ReadonlySet<string>): void {
  if (!url) return;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    throw new ApiError('invalid', 'url must be an http(s) URL', 422);
  }
  const range = isIP(host) ? refusedRange(host, parseNetworks(allowed)) : undefined;
  if (range)
    throw new ApiError(
      'invalid',
      `url is on a ${range} address; the operator must allow its network with ALLOWED_PRIVATE_NETWORKS`,
      422,
    );
}

export async function createWebhook(
  services: Services,
  scope: Scope,
  body: CreateBody,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  assertEventTypes(body.event_types);
  assertReachable(body.url, services.config.allowedPrivateNetworks);
  const now = nowIso();
  const object: ApiObject = {
    id: newId(webhooks.idPrefix),
    url: body.url,
    event_types: body.event_types,
    description: body.description ?? null,
    enabled: body.enabled ?? true,
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
  assertReachable(body.url, services.config.allowedPrivateNetworks);
  const given = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  const updated = await services.objects.transition(scope, webhooks.name, id, {
    change: (current) => ({ ...current, ...given }),
  });
  if (!updated) throw notFound('webhook');
  return publicWebhook(updated);
}

/**
 * A new secret, answered once (as create answers the first); the one it replaces keeps signing beside it
 * for `expires_in_hours` (engine/events/signing.ts, `signedHeaders`). A rotation during an overlap ends
 * the older secret at once: at most two sign.
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
