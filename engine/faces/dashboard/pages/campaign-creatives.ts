// The creatives step of a campaign: choose the kind of piece, then its size, sender and artwork (a
// template of the account, or HTML typed in), as many creatives as the campaign mails; each is checked
// as a direct create of its kind would be (domain/campaigns/creatives.ts), so a creative the form
// accepts makes valid pieces. Kinds, sizes and artwork sides come from the catalog.
import { ApiError } from '../../../base/errors';
import { findResource } from '../../../catalog';
import { geometryOf } from '../../../catalog/products';
import { PREVIEW_PRODUCTS } from '../../../domain/rendering/preview';
import { isPlainObject } from '../../../base/records';
import { campaigns } from '../../../catalog/campaigns';
import { CREATIVE_ARTWORK, CREATIVE_KINDS, creativeOperations, creatives } from '../../../catalog/creatives';
import { validate } from '../../../domain/validation/validate';
import { createCreative, reopenForCreative } from '../../../domain/campaigns/creatives';
import type { ApiObject } from '../../../store/objects';
import { page, PageNotFound, type DashboardRequest, type PageAnswer } from '../page';
import { addressLines } from './piece-view';
import { stepsOf } from './campaign-steps';

type Kind = keyof typeof CREATIVE_KINDS;

const KIND_LABELS: Record<Kind, string> = { postcard: 'Postcard', letter: 'Letter', self_mailer: 'Self mailer' };
const SIDE_LABELS: Record<string, string> = {
  front: 'Front',
  back: 'Back',
  file: 'Letter',
  inside: 'Inside',
  outside: 'Outside',
};
/** Senders and templates offered in the form's lists. */
const CHOICES = 100;

const isKind = (value: unknown): value is Kind => typeof value === 'string' && Object.hasOwn(CREATIVE_KINDS, value);

/** The kind's sizes and artwork sides (as the products catalog has them) and whether it takes `color`. */
function shapeOf(kind: Kind) {
  const resource = CREATIVE_KINDS[kind];
  const sizes = PREVIEW_PRODUCTS[resource] ?? [];
  const fields: readonly string[] = sizes.length ? geometryOf(resource, sizes[0]).sides.map((s) => s.field) : [];
  const sides = CREATIVE_ARTWORK.filter((side) => fields.includes(side));
  const create = findResource(resource)?.operations.find((o) => o.name === 'create');
  return { sizes, sides, colored: Boolean(create?.body && Object.hasOwn(create.body.properties, 'color')) };
}

async function campaignOf({ services, scope, params }: DashboardRequest): Promise<ApiObject> {
  const campaign = await services.objects.get(scope, campaigns.name, params.id);
  if (!campaign) throw new PageNotFound();
  return campaign;
}

async function creativePage(request: DashboardRequest, problem?: string): Promise<PageAnswer> {
  const { services, scope } = request;
  const campaign = await campaignOf(request);
  const input = problem ? request.form : {};
  const asked = problem ? input.kind : request.query.kind;
  const kind = isKind(asked) ? asked : undefined;
  const shape = kind && shapeOf(kind);
  const [existing, senders, templates] = await Promise.all([
    services.objects.children(scope, creatives.name, [campaign.id]),
    kind ? services.objects.list(scope, 'addresses', { limit: CHOICES }) : undefined,
    kind ? services.objects.list(scope, 'templates', { limit: CHOICES }) : undefined,
  ]);
  const templateChoices = (chosen: string | undefined) =>
    (templates?.data ?? []).map((t) => ({
      id: t.id,
      label: typeof t.description === 'string' && t.description ? `${t.description} (${t.id})` : t.id,
      chosen: t.id === chosen,
    }));
  return {
    view: 'campaign-creative',
    title: `Creatives of ${String(campaign.name)}`,
    nav: 'campaigns',
    status: problem ? 422 : 200,
    data: {
      campaign,
      problem,
      steps: stepsOf(campaign.id, 'creatives'),
      kinds: Object.entries(KIND_LABELS).map(([value, label]) => ({ value, label, chosen: value === kind })),
      kind,
      kindLabel: kind && KIND_LABELS[kind],
      input,
      sizes: shape?.sizes.map((size, i) => ({ size, chosen: input.size ? input.size === size : i === 0 })),
      colored: shape?.colored,
      sides: shape?.sides.map((side) => ({
        side,
        label: SIDE_LABELS[side],
        html: input[`side_${side}`] ?? '',
        templates: templateChoices(input[`template_${side}`]),
      })),
      senders: (senders?.data ?? []).map((a) => ({
        id: a.id,
        label: addressLines(a).join(', '),
        chosen: a.id === input.from,
      })),
      creatives: (existing.get(campaign.id) ?? []).map((c) => ({
        id: c.id,
        kind: c.resource_type,
        description: c.description,
        size: isPlainObject(c.details) ? c.details.size : undefined,
      })),
    },
  };
}

/** The create body the form describes: a chosen template wins over typed HTML. */
function creativeBody(campaignId: string, kind: Kind, form: Record<string, string>): Record<string, unknown> {
  const shape = shapeOf(kind);
  const details: Record<string, unknown> = {};
  if (form.size) details.size = form.size;
  if (shape.colored) details.color = form.color === 'on';
  const body: Record<string, unknown> = { resource_type: kind, campaign_id: campaignId, details };
  if (form.description?.trim()) body.description = form.description.trim();
  if (form.from) body.from = form.from;
  for (const side of shape.sides) {
    const artwork = form[`template_${side}`] || form[`side_${side}`]?.trim();
    if (artwork) body[side] = artwork;
  }
  return body;
}

async function add(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, session, form } = request;
  const campaign = await campaignOf(request);
  try {
    if (!isKind(form.kind)) throw new ApiError('invalid', 'Choose the kind of piece.', 422);
    const body = validate(creativeOperations.create.body, creativeBody(campaign.id, form.kind, form));
    await createCreative(services, scope, session.account.settings, body);
    return { redirect: `/dashboard/campaigns/${campaign.id}`, notice: 'creative_added' };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    return creativePage(request, error.message);
  }
}

async function remove(request: DashboardRequest): Promise<PageAnswer> {
  const { services, scope, params } = request;
  const campaign = await campaignOf(request);
  const creative = await services.objects.get(scope, creatives.name, params.crv);
  if (!creative || creative.campaign_id !== campaign.id) throw new PageNotFound();
  await reopenForCreative(services, scope, creative.id);
  await services.objects.delete(scope, creatives, creative.id);
  return { redirect: `/dashboard/campaigns/${campaign.id}/creatives/new`, notice: 'creative_removed' };
}

export const campaignCreativePages = [
  page('GET', '/campaigns/{id}/creatives/new', (request) => creativePage(request)),
  page('POST', '/campaigns/{id}/creatives/new', add),
  page('POST', '/campaigns/{id}/creatives/{crv}/delete', remove),
];
