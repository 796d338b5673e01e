// Cards and buckslips: letter inserts, kept as their artwork and their orders. Each side (HTML, a URL
// fetched now behind the network guard, or an upload) is checked against the insert's size as a
// mailpiece side is, and stored as a file `uploads/<id>_<side>` whose key the object keeps (answered as
// a signed link); a side left out is a blank page. The stock counts are not stored on the insert: they
// are read from its orders each time it is answered, so an order never has to change two objects.
import { findResource } from '../../catalog';
import type { Resource } from '../../catalog/types';
import { ApiError, notFound } from '../../base/errors';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { NewBlob } from '../../store/blobs';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { fetchRemoteArtwork } from '../artwork/remote-file';
import { discardStoredFiles, remoteUrl, storeFile, type IncomingFile } from '../pieces/artwork';
import { uploadKey } from '../pieces/piece-files';
import { isUploadRef } from '../../catalog/uploads';
import type { ArtworkProduct } from '../artwork/check-artwork';

/** A side left out: the vendor prints a blank back; a blank page is what the print room gets. */
const BLANK_SIDE = '<html><body></body></html>';
const URL_LIKE = /^https?:\/\//i;
const SIDES = ['front', 'back'] as const;

/** Each insert kind's orders, by the insert's resource name. */
export const ORDER_KIND: Record<string, { orders: string; parentField: string }> = {
  cards: { orders: 'card_orders', parentField: 'card_id' },
  buckslips: { orders: 'buckslip_orders', parentField: 'buckslip_id' },
};

function incoming(field: string, value: unknown, services: Services): Promise<IncomingFile> | IncomingFile {
  if (isUploadRef(value)) return { path: value.path, filename: value.filename };
  const text = typeof value === 'string' ? value : BLANK_SIDE;
  if (URL_LIKE.test(text))
    return fetchRemoteArtwork(field, remoteUrl(field, text), {
      maxBytes: services.config.maxFileBytes,
      timeoutMs: services.config.remoteFileTimeoutMs,
      allowedNetworks: services.config.allowedPrivateNetworks,
    });
  if (!text.includes('<'))
    throw new ApiError(
      'invalid',
      `${field} must be HTML, an http(s) URL of a PDF, PNG or JPEG, or an uploaded file`,
      422,
    );
  return { bytes: Buffer.from(text, 'utf8'), filename: `${field}.html` };
}

/** What only one kind shows: a card's orientation, a buckslip's paper. */
function kindFields(resource: Resource, size: string): Record<string, unknown> {
  if (resource.name === 'cards') return { orientation: size === '3.375x2.125' ? 'vertical' : 'horizontal' };
  return { stock: 'text', weight: '80#', finish: 'gloss' };
}

export async function createInsert(
  services: Services,
  scope: Scope,
  resource: Resource,
  body: Record<string, unknown>,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  const id = newId(resource.idPrefix);
  const now = nowIso();
  const size = String(body.size);
  const product: ArtworkProduct = { kind: resource.name, size, abroad: false, doubleSided: true };
  const blobs: NewBlob[] = [];
  try {
    for (const side of SIDES) {
      const file = await incoming(side, body[side], services);
      blobs.push((await storeFile(side, file, { product, assets: services.assets, pieceId: id }, now)).blob);
    }
    const [front, back] = SIDES.map((side) => uploadKey(id, side));
    // stored with the stock it has now (none), so an idempotent replay answers it whole
    const insert = stocked(
      resource,
      {
        id,
        description: body.description ?? null,
        size,
        url: front,
        raw_url: front,
        front_original_url: front,
        back_original_url: back,
        thumbnails: [],
        auto_reorder: false,
        reorder_quantity: null,
        threshold_amount: 0,
        status: 'processed',
        ...kindFields(resource, size),
        date_created: now,
        date_modified: now,
        object: resource.object,
      },
      [],
    );
    return await services.objects.insert(scope, resource.name, insert, { claim, blobs });
  } catch (error) {
    await discardStoredFiles(services.assets, blobs).catch(() => undefined); // the refusal is the answer
    throw error;
  }
}

const sum = (orders: readonly ApiObject[], status: readonly string[], field: string) =>
  orders.filter((o) => status.includes(String(o.status))).reduce((n, o) => n + Number(o[field] ?? 0), 0);

/** The inserts with their stock as their orders say now (and a buckslip's orders, oldest first). */
export async function withStock(
  services: Services,
  scope: Scope,
  resource: Resource,
  inserts: readonly ApiObject[],
): Promise<ApiObject[]> {
  const { orders } = ORDER_KIND[resource.name];
  const byInsert = await services.objects.children(
    scope,
    orders,
    inserts.map((i) => i.id),
  );
  return inserts.map((insert) => stocked(resource, insert, byInsert.get(insert.id) ?? []));
}

/** The insert with the stock `orders` (its own, oldest first) make. */
function stocked(resource: Resource, insert: ApiObject, orders: readonly ApiObject[]): ApiObject {
  const available = sum(orders, ['available'], 'inventory');
  const pending = sum(orders, ['pending', 'printing'], 'quantity_ordered');
  const stock = { available_quantity: available, pending_quantity: pending };
  if (resource.name === 'cards') return { ...insert, ...stock };
  return {
    ...insert,
    ...stock,
    allocated_quantity: 0,
    onhand_quantity: available,
    projected_quantity: pending + available,
    buckslip_orders: orders,
  };
}

/** The insert, live, or the spec's 404. */
export async function liveInsert(services: Services, scope: Scope, resource: Resource, id: string) {
  const insert = await services.objects.get(scope, resource.name, id);
  if (!insert) throw notFound(resource.title.toLowerCase());
  return insert;
}

/** What an update may change (validation refuses any other key; this holds the store to it too). */
const UPDATABLE = ['description', 'auto_reorder', 'reorder_quantity'] as const;

/** Update: description and reorder settings; auto_reorder needs a reorder_quantity, given or kept. */
export async function updateInsert(
  services: Services,
  scope: Scope,
  resource: Resource,
  id: string,
  body: Record<string, unknown>,
): Promise<ApiObject> {
  const updated = await services.objects.transition(scope, resource.name, id, {
    refuse: (current) =>
      (body.auto_reorder ?? current.auto_reorder) === true &&
      (body.reorder_quantity ?? current.reorder_quantity) == null
        ? new ApiError('invalid', 'reorder_quantity is required when auto_reorder is true', 422)
        : undefined,
    change: (current) => ({
      ...current,
      ...Object.fromEntries(UPDATABLE.filter((key) => body[key] !== undefined).map((key) => [key, body[key]])),
    }),
  });
  if (!updated) throw notFound(resource.title.toLowerCase());
  return (await withStock(services, scope, resource, [updated]))[0];
}

/**
 * An order of `quantity` of the insert: `pending` (the print room prints the run), living under the
 * insert and committed only while the insert is still live (a delete racing it wins or loses whole).
 */
export async function createOrder(
  services: Services,
  scope: Scope,
  resource: Resource,
  insertId: string,
  quantity: number,
  claim?: IdempotencyClaim,
): Promise<ApiObject> {
  await liveInsert(services, scope, resource, insertId);
  const kind = ORDER_KIND[resource.name];
  const orders = findResource(kind.orders);
  if (!orders) throw new Error(`no ${kind.orders} resource`);
  const now = nowIso();
  const order: ApiObject = {
    id: newId(orders.idPrefix),
    [kind.parentField]: insertId,
    status: 'pending',
    quantity_ordered: quantity,
    inventory: 0,
    unit_price: 0,
    date_created: now,
    date_modified: now,
    object: orders.object,
  };
  return services.objects.insert(scope, orders.name, order, {
    parent: insertId,
    claim,
    requires: [{ kind: resource.name, id: insertId, refusal: () => notFound(resource.title.toLowerCase()) }],
  });
}

/**
 * The insert's orders, newest first, as its list pages them (by offset, as the vendor does). All are
 * read: each is a print run of thousands, so an insert has a handful.
 */
export async function ordersOf(services: Services, scope: Scope, resource: Resource, insertId: string) {
  await liveInsert(services, scope, resource, insertId);
  const { orders } = ORDER_KIND[resource.name];
  return [...((await services.objects.children(scope, orders, [insertId])).get(insertId) ?? [])].reverse();
}
