// POST /v1/template_previews (our extension): a side drawn by the engine's renderer for a product and
// size (engine/domain/rendering/preview.ts), from `html` or a template's version (`template_id`, and
// `version_id` or its published one), answered as a PNG, or as the PDF with `format: "pdf"`; with
// `zones: true` the ink-free zone is drawn over it. Secret keys only, counted against the key's rate limit. An engine route beside the catalog,
// as it answers an image rather than an object.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { ApiError, notFound } from '../base/errors';
import { isPlainObject } from '../base/records';
import { retrieveTemplate } from '../domain/templates/templates';
import type { Services } from '../domain/services';
import type { Scope } from '../store/objects';
import { authenticate } from './auth';
import { parseBody } from './body';
import { admitRate, callerRate } from './pipeline';
import { engineRoute, type EngineRoute } from './routes';
import type { RouteEntry } from './router';

const text = (fields: Record<string, unknown>, name: string): string | undefined => {
  const value = fields[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ApiError('invalid', `${name} must be a string`, 422);
  return value;
};

/** The HTML to draw: given inline, or a template's version (published unless one is named). */
async function htmlOf(services: Services, scope: Scope, fields: Record<string, unknown>): Promise<string> {
  const html = text(fields, 'html');
  if (html !== undefined) return html;
  const templateId = text(fields, 'template_id');
  if (templateId === undefined) throw new ApiError('invalid', 'html or template_id is required', 422);
  const template = await retrieveTemplate(services.objects, scope, templateId);
  const versionId = text(fields, 'version_id');
  const versions = Array.isArray(template.versions) ? template.versions : [];
  const version = versionId ? versions.find((v) => isPlainObject(v) && v.id === versionId) : template.published_version;
  if (!isPlainObject(version) || typeof version.html !== 'string') throw notFound('template version');
  return version.html;
}

export function templatePreviewRoutes(services: Services): RouteEntry<EngineRoute>[] {
  const limits = {
    maxBytes: services.config.maxBodyBytes,
    maxFileBytes: 0,
    fileFields: [],
    uploadDir: services.config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads'),
  };
  const rateOf = callerRate(services);
  return [
    engineRoute('POST', '/v1/template_previews', async (ctx: Koa.Context) => {
      const caller = await authenticate(ctx.req, services.accounts);
      if (caller.kind !== 'secret')
        throw new ApiError('publishable_key_not_allowed', 'Previews need a secret API key.', 403);
      await admitRate(ctx, rateOf(caller, 'POST /v1/template_previews'));
      const { fields } = await parseBody(ctx.req, limits);
      const scope = { accountId: caller.account.id, mode: caller.mode };
      const variables = fields.merge_variables;
      if (variables !== undefined && !isPlainObject(variables))
        throw new ApiError('invalid', 'merge_variables must be an object', 422);
      const format = text(fields, 'format') ?? 'png';
      if (format !== 'png' && format !== 'pdf') throw new ApiError('invalid', 'format must be png or pdf', 422);
      const preview = await services.previewer.preview({
        html: await htmlOf(services, scope, fields),
        kind: text(fields, 'product') ?? 'postcards',
        size: text(fields, 'size') ?? '4x6',
        side: text(fields, 'side') ?? 'front',
        mergeVariables: variables,
        zones: fields.zones === true || fields.zones === 'true',
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.type = format === 'pdf' ? 'application/pdf' : 'image/png';
      ctx.body = format === 'pdf' ? Buffer.from(preview.pdf) : preview.png;
    }),
  ];
}
