import { billingGroupSchemas } from '../../catalog/billing-groups';
import { createBillingGroup, updateBillingGroup } from '../../mail/billing-groups';
import { typed, type Handler } from '../operation';

export const billingGroupHandlers: Record<string, Handler> = {
  create: typed(billingGroupSchemas.create, ({ services, scope, body, idempotency }) =>
    createBillingGroup(services.objects, scope, body, idempotency),
  ),
  update: typed(billingGroupSchemas.update, ({ services, scope, id, body }) =>
    updateBillingGroup(services.objects, scope, id!, body),
  ),
};
