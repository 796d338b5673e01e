// Webhooks: the list and a new webhook (its secret shown once, on the page the create answers, never
// in a link), and a webhook's page: its deliveries with their status and answer, replay of the failed
// ones, and a secret rotation (the new secret shown once likewise). Input goes through the catalog's
// schemas and the domain functions the API uses.
import { ApiError } from '../../../base/errors';
import { webhookOperations, webhooks } from '../../../catalog/webhooks';
import { validate } from '../../../domain/validation/validate';
import { createWebhook, publicWebhook, replayDeliveries, rotateWebhookSecret } from '../../../domain/events/webhooks';
import { listDeliveryAttempts } from '../../../domain/events/event-log';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';

async function list(request: DashboardRequest, problem?: string): Promise<PageAnswer> {
  const { services, scope, form } = request;
  const found = await services.objects.list(scope, webhooks.name, { limit: 100 });
  return {
    view: 'webhooks',
    title: 'Webhooks',
    nav: 'webhooks',
    status: problem ? 422 : 200,
    data: { rows: found.data.map((w) => publicWebhook(w)), problem, form: problem ? form : {} },
  };
}

async function show(request: DashboardRequest, extra: Record<string, unknown> = {}): Promise<PageAnswer> {
  const { services, scope, params, query } = request;
  const webhook = await services.objects.get(scope, webhooks.name, params.id);
  if (!webhook) throw new PageNotFound();
  const status = ['failed', 'succeeded', 'pending'].includes(query.status) ? query.status : undefined;
  const attempts = await listDeliveryAttempts(services, scope, webhook.id, {
    limit: 25,
    after: query.after || undefined,
    status,
  });
  return {
    view: 'webhook',
    title: `Webhook ${webhook.id}`,
    nav: 'webhooks',
    status: typeof extra.problem === 'string' ? 422 : 200,
    data: {
      webhook: publicWebhook(webhook),
      attempts: attempts.data,
      next: attempts.next,
      status,
      failed: attempts.data.some((a) => a.delivery_status === 'failed'),
      ...extra,
    },
  };
}

async function create(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, form } = request;
  try {
    const types = (form.event_types || '*')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const body = validate(webhookOperations.create.body, {
      url: form.url,
      event_types: types,
      description: form.description || undefined,
    });
    const made = await createWebhook(services, scope, body);
    // the secret is on this answer only: no redirect, so it never sits in a URL or a later page
    return show({ ...request, params: { id: made.id }, query: {} }, { secret: made.secret, created: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return list(request, error.message);
  }
}

async function rotate(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, form } = request;
  try {
    const body = validate(webhookOperations.rotateSecret.body, {
      expires_in_hours: form.expires_in_hours === undefined ? undefined : Number(form.expires_in_hours),
    });
    const rotated = await rotateWebhookSecret(services, scope, params.id, body);
    const secret = 'secret' in rotated ? rotated.secret : undefined;
    return show(request, { secret, rotated: true });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) throw new PageNotFound();
    return show(request, { problem: error.message });
  }
}

async function replay(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, form } = request;
  try {
    const answer = await replayDeliveries(services, scope, params.id, form.event_id || undefined);
    return show(request, { replayed: answer.queued });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) throw new PageNotFound();
    return show(request, { problem: error.message });
  }
}

export const webhookPages = [
  page('GET', '/webhooks', (request) => list(request)),
  page('POST', '/webhooks', create),
  page('GET', '/webhooks/{id}', (request) => show(request)),
  page('POST', '/webhooks/{id}/rotate', rotate),
  page('POST', '/webhooks/{id}/replay', replay),
];
