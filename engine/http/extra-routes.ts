// Routes outside the catalog: the generated OpenAPI document.
import type Koa from 'koa';
import { openApiDocument } from '../openapi/generate';
import type { Services } from '../services';

export function extraRoutes(_services: Services): Record<string, (ctx: Koa.Context) => void> {
  let cached: unknown;
  return {
    'GET /v1/openapi.json': (ctx) => {
      cached ??= openApiDocument(ctx.origin);
      ctx.body = cached;
    },
  };
}
