// The engine's side of "preview, then send" for AI agents (engine/domain/agents/confirmations.ts):
// POST /v1/agent/confirmations issues a token for a send tool and payload once its preview piece
// exists; POST /v1/agent/confirmations/redeem uses one. Secret keys only, like the API.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import { AGENT_TOOLS } from '../catalog/agent-tools';
import { confirmationsOf } from '../domain/agents/confirmations';
import type { Services } from '../domain/services';
import { authenticate } from './auth';
import { parseBody } from './body';
import { engineRoute, type EngineRoute } from './routes';
import type { RouteEntry } from './router';

const SEND_TOOLS = new Map(AGENT_TOOLS.filter((t) => t.flow === 'send').map((t) => [t.name, t.resource]));

export function agentConfirmationRoutes(services: Services): RouteEntry<EngineRoute>[] {
  const confirmations = confirmationsOf(services.store);
  const limits = {
    maxBytes: services.config.maxBodyBytes,
    maxFileBytes: 0,
    fileFields: [],
    uploadDir: services.config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads'),
  };
  /** The caller (secret keys only) and the JSON body's send tool, payload and string fields. */
  const read = async (ctx: Koa.Context) => {
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind !== 'secret')
      throw new ApiError('publishable_key_not_allowed', 'Confirmations need a secret API key.', 403);
    const { fields } = await parseBody(ctx.req, limits);
    const tool = typeof fields.tool === 'string' ? fields.tool : '';
    const resource = SEND_TOOLS.get(tool);
    if (!resource) throw new ApiError('invalid', `tool must be one of ${[...SEND_TOOLS.keys()].join(', ')}`, 422);
    if (fields.payload === null || typeof fields.payload !== 'object')
      throw new ApiError('invalid', 'payload must be the object the send will carry', 422);
    return { caller, tool, resource, payload: fields.payload, fields };
  };
  return [
    engineRoute('POST', '/v1/agent/confirmations', async (ctx) => {
      const { caller, tool, resource, payload, fields } = await read(ctx);
      // a token is for what was previewed: the preview's test piece of this kind must exist
      const previewId = typeof fields.preview_id === 'string' ? fields.preview_id : '';
      const preview = previewId
        ? await services.objects.get({ accountId: caller.account.id, mode: 'test' }, resource, previewId)
        : undefined;
      if (!preview) throw new ApiError('not_found', `preview_id must name the test ${resource} of the preview`, 404);
      ctx.body = await confirmations.issue(caller.account.id, tool, payload);
    }),
    engineRoute('POST', '/v1/agent/confirmations/redeem', async (ctx) => {
      const { caller, tool, payload, fields } = await read(ctx);
      await confirmations.redeem(caller.account.id, tool, payload, String(fields.token ?? ''));
      ctx.body = { redeemed: true };
    }),
  ];
}
