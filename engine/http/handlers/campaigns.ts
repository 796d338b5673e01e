// Campaigns and creatives: a campaign starts `scheduled` when it has a schedule (read by node-cron,
// checked on create and update), `draft` otherwise; `send` starts a run; a creative is checked against
// its kind's create operation. Retrieve, list and delete are the generic ones, and so are a campaign's
// runs (they live under it).
import { campaignOperations } from '../../catalog/campaigns';
import { creativeOperations } from '../../catalog/creatives';
import { notFound } from '../../errors';
import { createCreative } from '../../mail/campaigns/creatives';
import { startRun } from '../../mail/campaigns/run';
import { assertSchedule } from '../../mail/campaigns/scheduler';
import { serve, type Served } from '../operation';
import { validate } from '../validate';
import { createObject, updateObject } from './generic';

export const campaignHandlers: Served[] = [
  serve(campaignOperations.create, (request) => {
    assertSchedule(request.body.schedule);
    return createObject({
      ...request,
      body: { ...request.body, status: request.body.schedule ? 'scheduled' : 'draft' },
    });
  }),
  serve(campaignOperations.update, (request) => {
    assertSchedule(request.body.schedule);
    return updateObject(request);
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
        validate(create.body, pieceBody, create.rules);
      },
      idempotency,
    ),
  ),
];
