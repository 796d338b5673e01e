// The engine's own paths beside the API: the generated OpenAPI document, signed asset links, health,
// metrics, AI agents' confirmation tokens, campaign approval, template previews.
import { timingSafeEqual } from 'node:crypto';
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
import { rangeAsked, type RangeAsked } from './byte-range';

/** Whether `header` is `Bearer <token>`, compared in constant time. */
function bearerMatches(header: string, token: string): boolean {
  const given = Buffer.from(/^Bearer (.+)$/i.exec(header.trim())?.[1] ?? '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** The Range header read against the stored file's size; undefined when there is no file. */
async function askedRange(
  services: Services,
  key: string,
  header: string,
): Promise<(RangeAsked & { size: number }) | undefined> {
  const size = await services.assets.size(key).catch(() => undefined);
  return size === undefined ? undefined : { ...rangeAsked(header, size), size };
}

/** Prometheus text for the operator's scraper, not for browsers (no CORS: http/middleware.ts). */
export const METRICS_PATH = '/metrics';

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
      const key = `${params.folder}/${params.file}`;
      const notYet = new ApiError('not_found', 'This asset does not exist yet: the piece is not rendered.', 404);
      const asked = ctx.get('range') ? await askedRange(services, key, ctx.get('range')) : { kind: 'whole' as const };
      if (asked === undefined) throw notYet;
      if (asked.kind === 'unsatisfiable') {
        ctx.set('Content-Range', `bytes */${asked.size}`);
        throw new ApiError('range_not_satisfiable', 'The range asked for lies outside this file.', 416);
      }
      const range = asked.kind === 'part' ? asked.range : undefined;
      const asset = await services.assets.getStream(key, range).catch(() => undefined);
      if (!asset) throw notYet;
      ctx.set('Accept-Ranges', 'bytes');
      if (asked.kind === 'part') {
        ctx.status = 206;
        ctx.set('Content-Range', `bytes ${asked.range.start}-${asked.range.end}/${asked.size}`);
      }
      ctx.set('Cache-Control', 'private, max-age=3600');
      ctx.type = asset.contentType;
      if (asset.size !== undefined) ctx.length = asset.size;
      if (ctx.method === 'HEAD') {
        asset.stream.destroy(); // Koa would leave an unread stream (and its open file) to the collector
        ctx.status = range ? 206 : 200;
        return;
      }
      // streamed, so a large PDF is never held whole to be served; Koa pipes it and destroys it if the
      // client goes away
      ctx.body = asset.stream;
    }),
    engineRoute('GET', '/health', async (ctx) => {
      ctx.body = await services.health();
    }),
    engineRoute('GET', METRICS_PATH, async (ctx) => {
      const token = services.config.metricsToken;
      // off unless a token is configured: nothing about the engine is shown to whoever asks
      if (!token) throw new ApiError('not_found', 'Metrics are off: set METRICS_TOKEN to turn them on.', 404);
      if (!bearerMatches(ctx.get('authorization'), token)) {
        ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
        throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.', 401);
      }
      const { text, contentType } = await services.metrics.scrape();
      ctx.set('Cache-Control', 'no-store');
      ctx.type = contentType;
      ctx.body = text;
    }),
  ];
}
