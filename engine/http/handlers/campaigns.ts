// Campaigns and creatives: a campaign starts `scheduled` when it has a schedule (read by node-cron,
// checked on create and update), `draft` otherwise; `send` starts a run (once, for a campaign without a
// schedule); a creative is checked against its kind's create operation. A campaign is shown with its
// creatives (they live under it, and go with it when it is deleted); a delete cancels, in its own
// transaction, its pieces that have not gone to production, and says how many stay in production. A
// campaign's runs are the generic ones.
import { campaignOperations } from '../../catalog/campaigns';
import { creativeOperations } from '../../catalog/creatives';
import { notFound } from '../../base/errors';
import { startRun } from '../../domain/campaigns/start';
import { deleteCampaign } from '../../domain/campaigns/delete';
import { createCreative, reopenForCreative, updateCreative } from '../../domain/campaigns/creatives';
import { createCampaign, updateCampaign } from '../../domain/campaigns/settings';
import { serve, type Served } from '../operation';
import { deleteObject, retrieveObject } from './generic';
import { withCreatives } from '../../domain/campaigns/campaigns';
import { envelope, listParams } from '../list';

export const campaignHandlers: Served[] = [
  serve(campaignOperations.create, ({ services, scope, caller, body, idempotency }) =>
    createCampaign(services, scope, caller.account.settings, body, idempotency, caller.agent),
  ),
  serve(campaignOperations.update, ({ services, scope, caller, params, body }) =>
    updateCampaign(services, scope, caller.account.settings, params.id, body, caller.agent),
  ),
  serve(campaignOperations.retrieve, async (request) => {
    const campaign = await retrieveObject(request);
    return (await withCreatives(request.services, request.scope, [campaign]))[0];
  }),
  serve(campaignOperations.list, async ({ services, scope, resource, operation, query, url }) => {
    const page = await services.objects.list(scope, resource.name, listParams(query, operation));
    return envelope({ ...page, data: await withCreatives(services, scope, page.data) }, url, query);
  }),
  serve(campaignOperations.delete, ({ services, scope, params }) => deleteCampaign(services, scope, params.id)),
  serve(campaignOperations.send, async ({ services, scope, caller, resource, params, idempotency }) => {
    const campaign = await services.objects.get(scope, resource.name, params.id);
    if (!campaign) throw notFound('campaign');
    return startRun(services, scope, campaign, { trigger: 'manual', claim: idempotency, agent: caller.agent });
  }),
];

export const creativeHandlers: Served[] = [
  serve(creativeOperations.update, ({ services, scope, caller, params, body }) =>
    updateCreative(services, scope, caller.account.settings, params.id, body, caller.agent),
  ),
  serve(creativeOperations.create, ({ services, scope, caller, body, idempotency }) =>
    createCreative(services, scope, caller.account.settings, body, idempotency, caller.agent),
  ),
  serve(creativeOperations.delete, async (request) => {
    await reopenForCreative(request.services, request.scope, request.params.id);
    return deleteObject(request);
  }),
];
