// The engine's own paths beside the API: the generated OpenAPI document.
import { openApiDocument } from '../openapi/generate';
import type { Services } from '../services';
import type { Router } from './router';
import { requestOrigin } from './transport';

export function addEngineRoutes(router: Router, services: Services): Router {
  let cached: Record<string, unknown> | undefined;
  return router.add('GET', '/v1/openapi.json', (ctx) => {
    cached ??= openApiDocument();
    const origin = requestOrigin(ctx.req, services.config.trustedProxies, services.config.publicUrl);
    ctx.body = { ...cached, servers: [{ url: origin }] };
  });
}
