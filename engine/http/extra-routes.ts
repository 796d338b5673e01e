// The engine's own paths beside the API: the generated OpenAPI document, signed asset links, health,
// AI agents' confirmation tokens, campaign approval, template previews.
import { ApiError } from '../base/errors';
import { openApiDocument } from './openapi';
import { ASSET_ROUTE_PREFIX } from '../platform/assets/links';
import type { Services } from '../domain/services';
import { engineRoute, type EngineRoute } from './routes';
import type { RouteEntry } from './router';
import { requestOrigin } from './transport';
import { agentConfirmationRoutes } from './agent-confirmations';
import { campaignApprovalRoutes } from './campaign-approval';
import { templatePreviewRoutes } from './template-previews';

export function engineRoutes(services: Services): RouteEntry<EngineRoute>[] {
  let cached: Record<string, unknown> | undefined;
  return [
    ...agentConfirmationRoutes(services),
    ...campaignApprovalRoutes(services),
    ...templatePreviewRoutes(services),
    engineRoute('GET', '/v1/openapi.json', (ctx) => {
      cached ??= openApiDocument();
      const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
      ctx.body = { ...cached, servers: [{ url: origin }] };
    }),
    engineRoute('GET', `${ASSET_ROUTE_PREFIX}{folder}/{file}`, async (ctx, params) => {
      // The link is the only credential: a wrong, altered or expired signature is 403, so a probe learns
      // nothing about which files exist. A piece hands out its link from create on, so a well-signed
      // link whose file is not there yet (or any more) is 404, as the vendor answers before rendering.
      const path = `${ASSET_ROUTE_PREFIX}${params.folder}/${params.file}`;
      const query = ctx.query as Record<string, string | string[] | undefined>;
      const one = (v: string | string[] | undefined) => (Array.isArray(v) ? undefined : v);
      const forbidden = new ApiError('forbidden', 'This asset link is invalid or has expired.', 403);
      if (!services.signer.verify(path, one(query.expires), one(query.signature))) throw forbidden;
      const asset = await services.assets.getStream(`${params.folder}/${params.file}`).catch(() => undefined);
      if (!asset) throw new ApiError('not_found', 'This asset does not exist yet: the piece is not rendered.', 404);
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.type = asset.contentType;
      if (asset.size !== undefined) ctx.length = asset.size;
      if (ctx.method === 'HEAD') {
        asset.stream.destroy(); // Koa would leave an unread stream (and its open file) to the collector
        ctx.status = 200;
        return;
      }
      // streamed, so a large PDF is never held whole to be served; Koa pipes it and destroys it if the
      // client goes away
      ctx.body = asset.stream;
    }),
    engineRoute('GET', '/health', async (ctx) => {
      ctx.body = await services.health();
    }),
  ];
}
