// Campaigns and creatives: a campaign starts `scheduled` when it has a schedule (read by node-cron,
// checked on create and update), `draft` otherwise; `send` starts a run; a creative is checked against
// its kind's create operation. A campaign is shown with its creatives (they live under it, and go
// with it when it is deleted); delete is the generic one, and so are a campaign's runs.
import { campaignOperations } from '../../catalog/campaigns';
import { creativeOperations } from '../../catalog/creatives';
import { notFound } from '../../errors';
import { createCreative } from '../../mail/campaigns/creatives';
import { startRun } from '../../mail/campaigns/run';
import { assertSchedule } from '../../mail/campaigns/scheduler';
import { serve, type Served } from '../operation';
import { validate } from '../validate';
import { createObject, retrieveObject, updateObject } from './generic';
import { withCreatives } from '../../mail/campaigns/campaigns';
import { envelope, listParams } from '../list';
import type { ApiObject } from '../../store/objects';

export const campaignHandlers: Served[] = [
  serve(campaignOperations.create, (request) => {
    assertSchedule(request.body.schedule);
    const status = request.body.schedule ? 'scheduled' : 'draft';
    return createObject({ ...request, body: { ...request.body, status, is_draft: status === 'draft' } });
  }),
  serve(campaignOperations.update, async (request) => {
    assertSchedule(request.body.schedule);
    const updated = (await updateObject(request)) as ApiObject;
    return (await withCreatives(request.services, request.scope, [updated]))[0];
  }),
  serve(campaignOperations.retrieve, async (request) => {
    const campaign = await retrieveObject(request);
    return (await withCreatives(request.services, request.scope, [campaign]))[0];
  }),
  serve(campaignOperations.list, async ({ services, scope, resource, operation, query, url }) => {
    const page = await services.objects.list(scope, resource.name, listParams(query, operation));
    return envelope({ ...page, data: await withCreatives(services, scope, page.data) }, url, query);
  }),
  serve(campaignOperations.send, async ({ services, scope, resource, params, idempotency }) => {
    const campaign = await services.objects.get(scope, resource.name, params.id);
    if (!campaign) throw notFound('campaign');
    return startRun(services, scope, campaign, { trigger: 'manual', claim: idempotency });
  }),
];

export const creativeHandlers: Served[] = [
  serve(creativeOperations.create, ({ services, scope, caller, body, idempotency }) =>
    createCreative(
      services,
      scope,
      caller.account.settings,
      body,
      (kind, pieceBody) => {
        const create = kind.operations.find((o) => o.name === 'create');
        if (!create?.body) throw new Error(`${kind.name} has no create operation`);
        return validate(create.body, pieceBody, create.rules);
      },
      idempotency,
    ),
  ),
];
