// Which function serves each catalog operation. A test checks that every operation has one.
import type { Operation, Resource } from '../../catalog/types';
import type { Handler } from '../operation';
import { deleteObject, listObjects, retrieveObject } from './generic';
import { addressHandlers } from './addresses';
import { bankAccountHandlers } from './bank-accounts';
import { billingGroupHandlers } from './billing-groups';
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
  billing_groups: billingGroupHandlers,
  templates: templateHandlers,
  template_versions: templateVersionHandlers,
  us_verifications: usVerificationHandlers,
  intl_verifications: intlVerificationHandlers,
  us_autocompletions: autocompleteHandlers,
  us_zip_lookups: zipLookupHandlers,
};

const generic: Record<string, Handler> = { retrieve: retrieveObject, list: listObjects, delete: deleteObject };

export function handlerFor(resource: Resource, operation: Operation): Handler | undefined {
  return byResource[resource.name]?.[operation.name] ?? generic[operation.name];
}
