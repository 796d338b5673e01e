// The inserts a letter names (`cards`, `buckslips`: at most one of each, by the catalog) must exist in
// its account and mode and not be deleted: a piece naming one that does not is refused whole (404, as
// a missing template or billing group is), before any of its files are stored. The refs returned go in
// the piece's commit (`requires`), so an insert deleted meanwhile refuses the commit rather than
// leaving a letter that names stock no print room has. A letter draws nothing from the insert's stock:
// the print room holds the printed run and counts it (see the README, "Inserts").
import { buckslips } from '../../catalog/buckslips';
import { cards } from '../../catalog/cards';
import type { Resource } from '../../catalog/types';
import { ApiError } from '../../base/errors';
import type { ObjectStore, Scope } from '../../store/objects';
import type { ObjectRef } from '../../store/commit';

/** The piece fields that name inserts, and the kind each names. */
export const INSERT_FIELDS: readonly { field: string; resource: Resource }[] = [
  { field: 'cards', resource: cards },
  { field: 'buckslips', resource: buckslips },
];

const missing = (field: string, resource: Resource, id: string) =>
  new ApiError('not_found', `${field}: ${resource.title.toLowerCase()} ${id} not found`, 404);

/** The inserts `body` names, each checked to be live now; thrown as the spec's 404 when one is not. */
export async function insertRefs(
  objects: ObjectStore,
  scope: Scope,
  body: Record<string, unknown>,
): Promise<ObjectRef[]> {
  const refs: ObjectRef[] = [];
  for (const { field, resource } of INSERT_FIELDS) {
    const ids = body[field];
    if (!Array.isArray(ids)) continue;
    for (const id of ids as string[]) {
      if (!(await objects.get(scope, resource.name, id))) throw missing(field, resource, id);
      refs.push({ kind: resource.name, id, refusal: () => missing(field, resource, id) });
    }
  }
  return refs;
}
