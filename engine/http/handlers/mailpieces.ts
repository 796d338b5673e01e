// The one handler set every mailpiece kind shares: create and cancel read the kind's catalog
// declaration, simulate (test pieces only) walks a piece through production and tracking; retrieve
// and list are the generic ones.
import { catalog } from '../../catalog';
import { createPiece } from '../../domain/pieces/create';
import { cancelPiece } from '../../domain/pieces/cancel';
import { isSimulatedEvent } from '../../catalog/event-types';
import { isLifeStep, simulatePiece } from '../../domain/production/simulate';
import { serve, type Served } from '../operation';
import { isPlainObject } from '../../base/records';

export const mailpieceHandlers: Served[] = catalog
  .filter((resource) => resource.mailpiece)
  .flatMap((resource) =>
    resource.operations.flatMap((operation) => {
      if (operation.name === 'create')
        return [
          serve(operation, ({ services, scope, caller, body, idempotency, confirmation }) =>
            createPiece({
              services,
              scope,
              settings: caller.account.settings,
              resource,
              body,
              claim: idempotency,
              // the domain holds an AI agent's piece to the agent limits
              agent: caller.agent ? 'own' : undefined,
              confirmation,
            }),
          ),
        ];
      if (operation.name === 'simulate')
        return [
          serve(operation, ({ services, scope, params, body }) =>
            simulatePiece(services.objects, scope, resource, params.id, {
              through: isLifeStep(body.through) ? body.through : undefined,
              event: isSimulatedEvent(body.event) ? body.event : undefined,
              details: isPlainObject(body.details) ? body.details : undefined,
              reason: typeof body.reason === 'string' ? body.reason : undefined,
            }),
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
