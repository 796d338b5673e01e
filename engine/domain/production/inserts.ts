// The inserts a print room puts in a letter's envelope, for its job ticket: each card and buckslip the
// letter names, with the size and description it has now. They are read even if deleted since the
// letter was made: the letter was accepted with them, and the print room holds their printed stock.
// No artwork travels with the ticket: an insert is printed in runs (its orders) from its stored files,
// not per piece, so the ticket names the stock by id.
import type { ApiObject, ObjectStore, Scope } from '../../store/objects';
import { INSERT_FIELDS } from '../pieces/inserts';

export interface TicketInsert {
  type: 'card' | 'buckslip';
  id: string;
  size: string;
  description: string | null;
}

export async function ticketInserts(objects: ObjectStore, scope: Scope, piece: ApiObject): Promise<TicketInsert[]> {
  const found: TicketInsert[] = [];
  for (const { field, resource } of INSERT_FIELDS) {
    const ids: unknown = piece[field];
    if (!Array.isArray(ids)) continue;
    for (const id of ids.filter((given): given is string => typeof given === 'string')) {
      const insert = await objects.get(scope, resource.name, id, { includeDeleted: true });
      // created with the piece's check, so it is there; a missing one is an outage, retried
      if (!insert) throw new Error(`${piece.id}: its ${resource.object} ${id} is not in the store`);
      found.push({
        type: resource.object as TicketInsert['type'],
        id,
        size: String(insert.size),
        description: typeof insert.description === 'string' ? insert.description : null,
      });
    }
  }
  return found;
}
