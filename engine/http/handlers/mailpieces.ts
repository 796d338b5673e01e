// The one handler set every mailpiece kind shares: create and cancel read the kind's catalog
// declaration; retrieve and list are the generic ones.
import { createPiece } from '../../mail/pieces/create';
import { cancelPiece } from '../../mail/pieces/cancel';
import type { Handler } from '../operation';

export const mailpieceHandlers: Record<string, Handler> = {
  create: async ({ services, scope, caller, resource, body, idempotency }) =>
    createPiece({ services, scope, settings: caller.account.settings, resource, body, claim: idempotency }),
  cancel: async ({ services, scope, caller, resource, id }) =>
    cancelPiece(services.objects, services.assets, scope, caller.account.settings, resource, id!),
};
