// The trigger's webhook on the engine: created on activation for n8n's URL of this node and the events
// chosen, removed on deactivation (POST, GET, DELETE /v1/webhooks). The engine shows a webhook's
// signing secret only in its create answer, so the node keeps the secret, with the webhook's id, in
// its static data: a webhook the node holds no secret for could never have its deliveries checked.
// Rotation is driven from here: each activation that finds its webhook in place rotates its secret
// (POST /v1/webhooks/{id}/rotate_secret), keeping the old one for the overlap, during which deliveries
// signed with either are taken. A rotation made elsewhere (the API, the Printpost node) leaves the
// trigger with the old secret, which still signs until that overlap ends: reactivating the workflow
// before then gives the trigger a secret of its own again.
import { NodeOperationError, type IDataObject, type IHookFunctions, type IHttpRequestMethods } from 'n8n-workflow';
import { stringsOf } from '../../nodes/common/guards';
import { dataObjectOr } from '../../nodes/Printpost/data-object';
import { engineError } from '../../nodes/Printpost/engine-error';

const CREDENTIAL = 'printpostApi';

/**
 * What the node keeps between activation and its deliveries, in n8n's static data (changed in place,
 * which is how n8n saves it; each key read only once its type is checked): `webhookId`,
 * `webhookSecret`, and the secret the last rotation replaced with when the engine stops signing with
 * it (ISO date), `previousWebhookSecret` and `previousWebhookSecretExpiresAt`.
 */
export type StoredWebhook = IDataObject;

/** How long a rotation made on activation keeps the old secret signing: deliveries already on their way. */
const ROTATION_OVERLAP_HOURS = 1;

/** The secrets a delivery may be signed with now. */
export function knownSecrets(data: StoredWebhook, now = Date.now()): string[] {
  const secrets = typeof data.webhookSecret === 'string' ? [data.webhookSecret] : [];
  const expires = data.previousWebhookSecretExpiresAt;
  const until = typeof expires === 'string' ? Date.parse(expires) : NaN;
  if (typeof data.previousWebhookSecret === 'string' && until > now) secrets.push(data.previousWebhookSecret);
  return secrets;
}

interface Answer {
  statusCode: number;
  body: IDataObject;
}

async function send(this: IHookFunctions, method: IHttpRequestMethods, url: string, body?: IDataObject) {
  const credentials = await this.getCredentials<{ baseUrl?: string }>(CREDENTIAL);
  const response: unknown = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL, {
    method,
    baseURL: String(credentials.baseUrl ?? '').replace(/\/+$/, ''),
    url,
    headers: { Accept: 'application/json' },
    ...(body && { body }),
    json: true,
    returnFullResponse: true,
    // the spec's error body is read and raised with its message below
    ignoreHttpStatusErrors: true,
  });
  const full = dataObjectOr(response);
  const answer: Answer = {
    statusCode: typeof full.statusCode === 'number' ? full.statusCode : 0,
    body: dataObjectOr(full.body),
  };
  return answer;
}

const webhookPath = (id: string) => `/v1/webhooks/${encodeURIComponent(id)}`;

function stored(this: IHookFunctions): StoredWebhook {
  return this.getWorkflowStaticData('node');
}

function forget(data: StoredWebhook) {
  delete data.webhookId;
  delete data.webhookSecret;
  delete data.previousWebhookSecret;
  delete data.previousWebhookSecretExpiresAt;
}

/** A new secret for the node's webhook, the one it held kept for the overlap. */
async function rotateSecret(this: IHookFunctions, data: StoredWebhook, id: string): Promise<void> {
  const answer = await send.call(this, 'POST', `${webhookPath(id)}/rotate_secret`, {
    expires_in_hours: ROTATION_OVERLAP_HOURS,
  });
  if (answer.statusCode >= 400) throw engineError(this.getNode(), answer.statusCode, answer.body);
  const { secret, previous_secret_expires_at: until } = answer.body;
  if (typeof secret !== 'string')
    throw new NodeOperationError(this.getNode(), 'The engine rotated the secret without answering it');
  if (typeof data.webhookSecret === 'string' && typeof until === 'string') {
    data.previousWebhookSecret = data.webhookSecret;
    data.previousWebhookSecretExpiresAt = until;
  }
  data.webhookSecret = secret;
}

function chosenEvents(this: IHookFunctions): string[] {
  const events = stringsOf(this.getNodeParameter('events', []));
  if (!events.length) throw new NodeOperationError(this.getNode(), 'Choose at least one event to trigger on');
  return events;
}

const sameTypes = (a: unknown, b: readonly string[]) =>
  Array.isArray(a) && a.length === b.length && b.every((t) => a.includes(t));

/** Whether the webhook the node registered still exists for this URL and these events (and enabled). */
export async function webhookExists(this: IHookFunctions): Promise<boolean> {
  const data = stored.call(this);
  if (typeof data.webhookId !== 'string') return false;
  const answer = await send.call(this, 'GET', webhookPath(data.webhookId));
  if (answer.statusCode === 404) {
    forget(data);
    return false;
  }
  if (answer.statusCode >= 400) throw engineError(this.getNode(), answer.statusCode, answer.body);
  const hook = answer.body;
  if (
    typeof data.webhookSecret === 'string' &&
    hook.url === this.getNodeWebhookUrl('default') &&
    hook.enabled === true &&
    sameTypes(hook.event_types, chosenEvents.call(this))
  ) {
    await rotateSecret.call(this, data, data.webhookId);
    return true;
  }
  // registered for another URL or other events (the workflow changed since): removed, so that the
  // webhook created in its place is the only one and no event arrives twice
  await deleteWebhook.call(this);
  return false;
}

/** Registers a webhook for n8n's URL of this node and the events chosen; keeps its id and secret. */
export async function createWebhook(this: IHookFunctions): Promise<boolean> {
  const url = this.getNodeWebhookUrl('default');
  if (!url) throw new NodeOperationError(this.getNode(), 'n8n gave this trigger no webhook URL');
  const workflow = this.getWorkflow();
  const answer = await send.call(this, 'POST', '/v1/webhooks', {
    url,
    event_types: chosenEvents.call(this),
    description: `n8n: ${workflow.name ?? workflow.id ?? 'workflow'}`.slice(0, 255),
  });
  if (answer.statusCode >= 400) throw engineError(this.getNode(), answer.statusCode, answer.body);
  const { id, secret } = answer.body;
  if (typeof id !== 'string' || typeof secret !== 'string')
    throw new NodeOperationError(this.getNode(), 'The engine created the webhook without answering its id and secret');
  const data = stored.call(this);
  data.webhookId = id;
  data.webhookSecret = secret;
  return true;
}

/** Removes the node's webhook; one the engine no longer has counts as removed. */
export async function deleteWebhook(this: IHookFunctions): Promise<boolean> {
  const data = stored.call(this);
  if (typeof data.webhookId !== 'string') return true;
  const answer = await send.call(this, 'DELETE', webhookPath(data.webhookId));
  if (answer.statusCode >= 400 && answer.statusCode !== 404) return false;
  forget(data);
  return true;
}
