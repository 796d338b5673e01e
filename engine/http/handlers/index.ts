// What serves each catalog operation: a resource's own handler, bound to that very operation object,
// else the generic one of its name. A test checks that every operation is served.
import type { Operation, Resource } from '../../catalog/types';
import { serve, type Handler, type Served } from '../operation';
import { hasAssetLinks } from '../../platform/assets/links';
import { createObject, deleteObject, listObjects, listStoredObjects, retrieveObject, updateObject } from './generic';
import { addressHandlers } from './addresses';
import { bankAccountHandlers } from './bank-accounts';
import { mailpieceHandlers } from './mailpieces';
import { templateHandlers, templateVersionHandlers } from './templates';
import { verificationHandlers } from './verifications';
import { eventHandlers, webhookHandlers } from './events';
import { campaignHandlers, creativeHandlers } from './campaigns';
import { exportHandlers, uploadHandlers } from './uploads';
import { insertHandlersServed } from './inserts';

const own = new Map<Operation, Served>(
  [
    ...addressHandlers,
    ...bankAccountHandlers,
    ...mailpieceHandlers,
    ...templateHandlers,
    ...templateVersionHandlers,
    ...verificationHandlers,
    ...eventHandlers,
    ...webhookHandlers,
    ...campaignHandlers,
    ...creativeHandlers,
    ...uploadHandlers,
    ...exportHandlers,
    ...insertHandlersServed,
  ].map((served) => [served.operation, served]),
);

const generic: Record<string, Handler> = {
  create: createObject,
  retrieve: retrieveObject,
  list: listObjects,
  update: updateObject,
  delete: deleteObject,
};

export function servedFor(resource: Resource, operation: Operation): Served | undefined {
  const found = own.get(operation);
  if (found) return found;
  // a piece's (or an insert's) answer signs its file links, so its list is read as objects
  if (operation.name === 'list' && !hasAssetLinks(resource)) return serve(operation, listStoredObjects);
  const handler = Object.hasOwn(generic, operation.name) ? generic[operation.name] : undefined;
  return handler ? serve(operation, handler) : undefined;
}
