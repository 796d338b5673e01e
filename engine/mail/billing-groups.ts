// Billing groups: created and renamed; mailpieces refer to them by id.
import type { Static } from '@sinclair/typebox';
import { notFound } from '../errors';
import { billingGroups, type billingGroupSchemas } from '../catalog/billing-groups';
import type { ApiObject, ObjectStore, Scope } from '../store/objects';
import type { IdempotencyClaim } from '../store/idempotency-claims';
import { newId } from '../util/ids';
import { nowIso } from '../util/time';

type Create = Static<typeof billingGroupSchemas.create.body>;
type Update = Static<typeof billingGroupSchemas.update.body>;

export async function createBillingGroup(
  objects: ObjectStore,
  scope: Scope,
  input: Create,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  const now = nowIso();
  const group: ApiObject = {
    id: newId('bg'),
    name: input.name,
    description: input.description ?? null,
    date_created: now,
    date_modified: now,
    object: 'billing_group',
  };
  await objects.insert(scope, billingGroups.name, group, { claim });
  return group;
}

export async function updateBillingGroup(
  objects: ObjectStore,
  scope: Scope,
  id: string,
  input: Update,
): Promise<ApiObject> {
  const updated = await objects.transition(scope, billingGroups.name, id, {
    change: (current) => ({
      ...current,
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
    }),
  });
  if (!updated) throw notFound('billing group');
  return updated;
}
