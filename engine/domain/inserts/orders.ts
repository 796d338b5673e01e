// An insert order's progress, as the print room reports it (`printpost order`): a run is `pending`
// when ordered, `printing`, then `available` with its printed count as `inventory` (its insert's
// available stock), and `depleted` once used up; a run not yet available may be `cancelled` with a
// reason. One compare-and-set transition each, refused from a state the step does not follow.
import { cardOrders } from '../../catalog/cards';
import { buckslipOrders } from '../../catalog/buckslips';
import { ORDER_STATUSES } from '../../catalog/insert-fields';
import type { ApiObject, ObjectStore } from '../../store/objects';
import { nowIso } from '../../base/time';
import { CommandRefused } from '../../base/errors';

export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The states each step may be taken from. */
const FROM: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: [],
  printing: ['pending'],
  available: ['pending', 'printing'],
  cancelled: ['pending', 'printing'],
  depleted: ['available'],
};

const ORDER_KINDS = new Set<string>([cardOrders.name, buckslipOrders.name]);

export const isOrderStatus = (value: string): value is OrderStatus => ORDER_STATUSES.some((known) => known === value);

/** Moves order `id` to `status`; `inventory` (available: default all ordered) and `reason` (cancelled). */
export async function setOrderStatus(
  objects: ObjectStore,
  id: string,
  status: string,
  options: { inventory?: number; reason?: string } = {},
): Promise<ApiObject> {
  if (!isOrderStatus(status) || status === 'pending')
    throw new CommandRefused(`STATUS must be one of ${ORDER_STATUSES.filter((s) => s !== 'pending').join(', ')}`);
  const where = await objects.locate(id);
  if (!where || !ORDER_KINDS.has(where.kind)) throw new CommandRefused(`no card or buckslip order ${id}`);
  const changed = await objects.transition(where.scope, where.kind, id, {
    refuse: (current) => {
      const from = String(current.status);
      if (!FROM[status].some((known) => known === from))
        return new CommandRefused(`${id} is ${from}: it cannot become ${status}`);
      const inventory = options.inventory ?? Number(current.quantity_ordered);
      if (
        status === 'available' &&
        !(Number.isInteger(inventory) && inventory >= 0 && inventory <= Number(current.quantity_ordered))
      )
        return new CommandRefused(`--inventory must be a whole number from 0 to ${String(current.quantity_ordered)}`);
      return undefined;
    },
    change: (current) => {
      const next: ApiObject = { ...current, status };
      if (status === 'available') {
        next.inventory = options.inventory ?? current.quantity_ordered;
        next.availability_date = nowIso();
      }
      if (status === 'depleted') next.inventory = 0;
      if (status === 'cancelled') next.cancelled_reason = options.reason ?? 'cancelled by the print room';
      return next;
    },
  });
  if (!changed) throw new CommandRefused(`no card or buckslip order ${id}`);
  return changed;
}
