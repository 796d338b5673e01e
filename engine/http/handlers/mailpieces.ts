// The one handler set every mailpiece kind shares: create and cancel read the kind's catalog
// declaration; retrieve and list are the generic ones.
import { catalog } from '../../catalog';
import { createPiece } from '../../mail/pieces/create';
import { cancelPiece } from '../../mail/pieces/cancel';
import { serve, type Served } from '../operation';

export const mailpieceHandlers: Served[] = catalog
  .filter((resource) => resource.mailpiece)
  .flatMap((resource) =>
    resource.operations.flatMap((operation) => {
      if (operation.name === 'create')
        return [
          serve(operation, ({ services, scope, caller, body, idempotency }) =>
            createPiece({ services, scope, settings: caller.account.settings, resource, body, claim: idempotency }),
          ),
        ];
      if (operation.name === 'cancel')
        return [
          serve(operation, ({ services, scope, caller, params }) =>
            cancelPiece(services.objects, services.assets, scope, caller.account.settings, resource, params.id),
          ),
        ];
      return [];
    }),
  );
