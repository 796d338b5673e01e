// Campaign approval over HTTP (our extension, engine/domain/campaigns/approval.ts):
// POST /v1/campaigns/{id}/approve and /reject, secret keys only, with an optional `by` (who decides,
// as the caller names them) and `reason`; both answer the campaign as its GET does. They are engine
// routes rather than catalog operations, so the vendor-compatible shapes and the packs stay as they are;
// each counts against the key's rate limit as an API operation does.
// GET /v1/campaigns/{id}/proofs?sample=N gives the reviewer proofs of a sample of real recipients
// (domain/campaigns/proofs.ts), each drawn side as a PNG `data:` URL.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { ApiError } from '../base/errors';
import { decideApproval, type Decision } from '../domain/campaigns/approval';
import { withCreatives } from '../domain/campaigns/campaigns';
import { campaignProofs } from '../domain/campaigns/proofs';
import type { Services } from '../domain/services';
import { authenticate } from './auth';
import { parseBody } from './body';
import { admitRate, callerRate } from './pipeline';
import { engineRoute, type EngineRoute } from './routes';
import type { RouteEntry } from './router';

const MAX_BY = 255;
const MAX_REASON = 1_000;

/** An optional text field of at most `max` characters. */
function optionalText(fields: Record<string, unknown>, name: string, max: number): string | undefined {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > max)
    throw new ApiError('invalid', `${name} must be a string of at most ${max} characters`, 422);
  return value;
}

export function campaignApprovalRoutes(services: Services): RouteEntry<EngineRoute>[] {
  const limits = {
    maxBytes: services.config.maxBodyBytes,
    maxFileBytes: 0,
    fileFields: [],
    uploadDir: services.config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads'),
  };
  const rateOf = callerRate(services);
  const decide = (decision: Decision['decision']) => async (ctx: Koa.Context, params: Record<string, string>) => {
    const caller = await authenticate(ctx.req, services.accounts);
    if (caller.kind !== 'secret')
      throw new ApiError('publishable_key_not_allowed', 'Approving a campaign needs a secret API key.', 403);
    await admitRate(ctx, rateOf(caller, `POST /v1/campaigns/{id}/${decision === 'approved' ? 'approve' : 'reject'}`));
    const { fields } = await parseBody(ctx.req, limits);
    const scope = { accountId: caller.account.id, mode: caller.mode };
    const by = optionalText(fields, 'by', MAX_BY) ?? `api key …${caller.keyHash.slice(-6)}`;
    const reason = optionalText(fields, 'reason', MAX_REASON);
    const campaign = await decideApproval(services, scope, String(params.id), { decision, by, reason });
    ctx.body = (await withCreatives(services, scope, [campaign]))[0];
  };
  return [
    engineRoute('POST', '/v1/campaigns/{id}/approve', decide('approved')),
    engineRoute('POST', '/v1/campaigns/{id}/reject', decide('rejected')),
    engineRoute('GET', '/v1/campaigns/{id}/proofs', async (ctx, params) => {
      const caller = await authenticate(ctx.req, services.accounts);
      if (caller.kind !== 'secret')
        throw new ApiError('publishable_key_not_allowed', 'Proofs need a secret API key.', 403);
      await admitRate(ctx, rateOf(caller, 'GET /v1/campaigns/{id}/proofs'));
      const scope = { accountId: caller.account.id, mode: caller.mode };
      const sample = Number(ctx.query.sample ?? 3);
      if (!Number.isInteger(sample) || sample < 1 || sample > 5)
        throw new ApiError('invalid', 'sample must be a whole number from 1 to 5', 422);
      const proofs = await campaignProofs(services, scope, String(params.id), sample);
      ctx.body = {
        object: 'list',
        data: proofs.map(({ png, ...proof }) => ({
          ...proof,
          object: 'campaign_proof',
          image: png ? `data:image/png;base64,${png.toString('base64')}` : null,
        })),
      };
    }),
  ];
}
