// Which function serves each catalog operation. A test checks that every operation has one.
import type { Operation, Resource } from '../../catalog/types';
import type { Handler } from '../operation';
import { createObject, deleteObject, listObjects, retrieveObject, updateObject } from './generic';
import { addressHandlers } from './addresses';
import { bankAccountHandlers } from './bank-accounts';
import { mailpieceHandlers } from './mailpieces';
import { templateHandlers, templateVersionHandlers } from './templates';
import {
  autocompleteHandlers,
  intlVerificationHandlers,
  usVerificationHandlers,
  zipLookupHandlers,
} from './verifications';

const byResource: Record<string, Record<string, Handler>> = {
  addresses: addressHandlers,
  bank_accounts: bankAccountHandlers,
  templates: templateHandlers,
  template_versions: templateVersionHandlers,
  us_verifications: usVerificationHandlers,
  intl_verifications: intlVerificationHandlers,
  us_autocompletions: autocompleteHandlers,
  us_zip_lookups: zipLookupHandlers,
};

const generic: Record<string, Handler> = {
  create: createObject,
  retrieve: retrieveObject,
  list: listObjects,
  update: updateObject,
  delete: deleteObject,
};

export function handlerFor(resource: Resource, operation: Operation): Handler | undefined {
  const own = resource.mailpiece ? mailpieceHandlers : byResource[resource.name];
  return own?.[operation.name] ?? generic[operation.name];
}
