// Templates: the list, a new template, and a template's page: its versions (publish one), an editor
// that saves a new version, and a preview drawn by the engine's own renderer for each product, size and
// side with the ink-free zone shown (engine/domain/rendering/preview.ts). The preview is a form posted
// into a frame, answered as the PNG itself, so it works without JavaScript; assets/templates.js only
// posts it again as the HTML is typed. Input goes through the catalog's own schemas (validate).
import { ApiError } from '../../../base/errors';
import { isPlainObject } from '../../../base/records';
import { templateOperations, templates, versionOperations } from '../../../catalog/templates';
import { PREVIEW_PRODUCTS } from '../../../domain/rendering/preview';
import { geometryOf } from '../../../catalog/products';
import { validate } from '../../../domain/validation/validate';
import {
  assembleTemplates,
  createTemplate,
  createVersion,
  retrieveTemplate,
  updateTemplate,
} from '../../../domain/templates/templates';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';

const SIDES: Record<string, string[]> = Object.fromEntries(
  Object.entries(PREVIEW_PRODUCTS).map(([kind, sizes]) => [kind, geometryOf(kind, sizes[0]).sides.map((s) => s.field)]),
);

/** The product, size and side chosen (form or query), each one the catalog offers, else the first. */
export function previewChoice(fields: Record<string, string>) {
  const kind = Object.hasOwn(PREVIEW_PRODUCTS, fields.product) ? fields.product : 'postcards';
  const sizes = PREVIEW_PRODUCTS[kind];
  const size = sizes.includes(fields.size) ? fields.size : sizes[0];
  const sides = geometryOf(kind, size).sides.map((s) => s.field);
  const side = sides.includes(fields.side) ? fields.side : sides[sides.length - 1];
  const zones = fields.zones !== 'off';
  return { kind, size, side, zones };
}

const options = (values: readonly string[], chosen: string) =>
  values.map((value) => ({ value, chosen: value === chosen }));

async function list({ services, scope, query }: DashboardRequest): Promise<PageAnswer> {
  const page = await services.objects.list(scope, templates.name, { limit: 50, after: query.after || undefined });
  const rows = await assembleTemplates(services.objects, scope, page.data);
  return {
    view: 'templates',
    title: 'Templates',
    nav: 'templates',
    data: {
      rows: rows.map((t) => ({
        id: t.id,
        description: t.description,
        versions: Array.isArray(t.versions) ? t.versions.length : 0,
        date: t.date_created,
      })),
      next: page.next,
    },
  };
}

async function create(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, form } = request;
  try {
    const body = validate(templateOperations.create.body, {
      description: form.description || undefined,
      html: form.html,
      engine: 'handlebars',
    });
    const template = await createTemplate(services.objects, scope, body);
    return { redirect: `/dashboard/templates/${template.id}`, notice: 'template_created' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const shown = await list(request);
    return 'view' in shown ? { ...shown, status: 422, data: { ...shown.data, problem: error.message, form } } : shown;
  }
}

async function show(request: DashboardRequest, problem?: string, draft?: string): Promise<PageAnswer> {
  const { services, scope, params, query } = request;
  const template = await retrieveTemplate(services.objects, scope, params.id).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) throw new PageNotFound();
    throw error;
  });
  const versions = (Array.isArray(template.versions) ? template.versions : []).filter(isPlainObject);
  const published = isPlainObject(template.published_version) ? template.published_version : undefined;
  const editing = versions.find((v) => v.id === query.version) ?? published ?? versions[0];
  const choice = previewChoice({ ...query, ...request.form });
  const previewQuery = new URLSearchParams({
    version: String(editing?.id ?? ''),
    product: choice.kind,
    size: choice.size,
    side: choice.side,
    zones: choice.zones ? 'on' : 'off',
  });
  return {
    view: 'template',
    title: `Template ${template.id}`,
    nav: 'templates',
    status: problem ? 422 : 200,
    data: {
      template,
      problem,
      html: draft ?? (typeof editing?.html === 'string' ? editing.html : ''),
      editingId: editing?.id,
      versions: versions.map((v) => ({
        id: v.id,
        description: v.description,
        date: v.date_created,
        published: v.id === published?.id,
        editing: v.id === editing?.id,
      })),
      products: options(Object.keys(PREVIEW_PRODUCTS), choice.kind),
      sizes: options(PREVIEW_PRODUCTS[choice.kind], choice.size),
      sides: options(
        geometryOf(choice.kind, choice.size).sides.map((s) => s.field),
        choice.side,
      ),
      allSizes: JSON.stringify(PREVIEW_PRODUCTS),
      allSides: JSON.stringify(SIDES),
      zones: choice.zones,
      previewSrc: `/dashboard/templates/${template.id}/preview.png?${previewQuery.toString()}`,
      frameSrc: `/dashboard/templates/${template.id}/preview-frame?${previewQuery.toString()}`,
    },
  };
}

/**
 * The editor's frame: a small document whose image fits the frame's width at any screen size (the
 * browser's own page for a PNG shows it at full size on a phone). A draft's drawing has no URL of its
 * own, so it comes inline as a data: image, which this document's policy alone allows.
 */
function framed(request: DashboardRequest, src: string, inline: boolean): PageAnswer {
  if (inline)
    request.ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; img-src 'self' data:; style-src 'self'; base-uri 'none'; frame-ancestors 'self'",
    );
  return { view: 'preview-frame', title: 'Preview', bare: true, data: { src } };
}

/** Draws the preview: the PNG itself, or (`frame`) the editor's frame document showing it inline. */
async function drawPreview(
  request: DashboardRequest,
  html: string,
  fields: Record<string, string>,
  frame = false,
): Promise<PageAnswer> {
  const choice = previewChoice(fields);
  try {
    const preview = await request.services.previewer.preview({ html, ...choice, mergeVariables: {} });
    request.ctx.set('Cache-Control', 'no-store');
    if (frame) return framed(request, `data:image/png;base64,${preview.png.toString('base64')}`, true);
    // opened as a document (the frame), a PNG is shown by the browser's own image page, whose inline
    // styles the pages' policy would refuse; an image holds no markup, so its own policy allows them
    request.ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'",
    );
    request.ctx.type = 'image/png';
    request.ctx.body = preview.png;
    return { stream: true };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      view: 'problem',
      title: 'No preview',
      status: error.status,
      data: { heading: 'The preview could not be drawn', text: error.message },
    };
  }
}

async function storedPreview(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, query } = request;
  const template = await retrieveTemplate(services.objects, scope, params.id).catch(() => {
    throw new PageNotFound();
  });
  const versions = (Array.isArray(template.versions) ? template.versions : []).filter(isPlainObject);
  const version = versions.find((v) => v.id === query.version) ?? template.published_version;
  if (!isPlainObject(version) || typeof version.html !== 'string') throw new PageNotFound();
  return drawPreview(request, version.html, query);
}

async function draftPreview(request: DashboardRequest): Promise<PageAnswer> {
  await retrieveTemplate(request.services.objects, request.scope, request.params.id).catch(() => {
    throw new PageNotFound();
  });
  return drawPreview(request, request.form.html ?? '', request.form, true);
}

/** The frame's first document: the stored version's drawing, by its URL. */
async function frameOfStored(request: DashboardRequest): Promise<PageAnswer> {
  await retrieveTemplate(request.services.objects, request.scope, request.params.id).catch(() => {
    throw new PageNotFound();
  });
  const query = new URLSearchParams(request.query).toString();
  return framed(request, `/dashboard/templates/${request.params.id}/preview.png?${query}`, false);
}

async function saveVersion(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, form } = request;
  try {
    const body = validate(versionOperations.create.body, {
      html: form.html,
      description: form.description || undefined,
      engine: 'handlebars',
    });
    const version = await createVersion(services.objects, scope, params.id, body);
    if (form.publish === 'on')
      await updateTemplate(services.objects, scope, params.id, { published_version: version.id });
    return { redirect: `/dashboard/templates/${params.id}?version=${version.id}`, notice: 'version_saved' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) throw new PageNotFound();
    return show(request, error.message, form.html);
  }
}

async function publish(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params, form } = request;
  try {
    const body = validate(templateOperations.update.body, { published_version: form.version });
    await updateTemplate(services.objects, scope, params.id, body);
    return { redirect: `/dashboard/templates/${params.id}`, notice: 'version_published' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    if (error.status === 404) throw new PageNotFound();
    return show(request, error.message);
  }
}

export const templatePages = [
  page('GET', '/templates', list),
  page('POST', '/templates', create),
  page('GET', '/templates/{id}', (request) => show(request)),
  page('GET', '/templates/{id}/preview.png', storedPreview),
  page('GET', '/templates/{id}/preview-frame', frameOfStored),
  page('POST', '/templates/{id}/preview', draftPreview),
  page('POST', '/templates/{id}/versions', saveVersion),
  page('POST', '/templates/{id}/publish', publish),
];
