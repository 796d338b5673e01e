// Routes outside the catalog: the generated OpenAPI document.
import type Koa from 'koa';
import { openApiDocument } from '../openapi/generate';
import type { Services } from '../services';
import { requestOrigin } from './transport';

export function extraRoutes(services: Services): Record<string, (ctx: Koa.Context) => void> {
  let cached: Record<string, unknown> | undefined;
  return {
    'GET /v1/openapi.json': (ctx) => {
      cached ??= openApiDocument();
      const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
      ctx.body = { ...cached, servers: [{ url: origin }] };
    },
  };
}
