// Creatives: what a campaign mails, checked when created as a create of their kind would be (the
// recipient left to each run), so that a run only meets the failures a recipient can cause. An inline
// sender is saved to the address book with the creative, once, rather than with each of its pieces.
import { ApiError } from '../../base/errors';
import { findResource } from '../../catalog';
import { campaigns } from '../../catalog/campaigns';
import {
  CREATIVE_ARTWORK,
  CREATIVE_KINDS,
  creativeOperations,
  creatives,
  type CreativeKind,
} from '../../catalog/creatives';
import type { BodyOf, Resource } from '../../catalog/types';
import type { Settings } from '../accounts/settings';
import type { Services } from '../services';
import type { ApiObject, Scope } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { addressCreated, resolveParty } from '../pieces/parties';
import { liveAddressSlots } from '../addresses/address-book';
import { discardStoredFiles } from '../pieces/artwork';
import { insertRefs } from '../pieces/inserts';
import { storeSides, uploadedSides, type CreativeFiles } from './creative-files';
import { validate } from '../validation/validate';
import { reopenApproval } from '../approvals/reopen';
import { markAgentDriven } from '../agents/driven';
import { isPlainObject } from '../../base/records';

export type CreativeBody = BodyOf<typeof creativeOperations.create>;
export type CreativeUpdate = BodyOf<typeof creativeOperations.update>;

/**
 * A piece body checked against its kind's create schema and rules, as a direct create is; the body as
 * that validation leaves it (form strings coerced, defaults filled).
 */
function checkPiece(kind: Resource, body: Record<string, unknown>): Record<string, unknown> {
  const create = kind.operations.find((o) => o.name === 'create');
  if (!create?.body) throw new Error(`${kind.name} has no create operation`);
  return validate(create.body, body, create.rules);
}

/** Fields of a creative's piece that are not its `details`: its own, the run's recipient, the campaign's. */
const NOT_DETAILS = new Set([
  ...Object.keys(creativeOperations.create.body.properties),
  'to',
  'use_type',
  'billing_group_id',
]);

/**
 * The kind's checks see the piece flattened, so a refusal names a detail as a top-level field (`color
 * is required`): named as the creative has it (`details.color`), so the client knows what to add where.
 */
function inDetails(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const field = /^[a-z_]+/.exec(error.message)?.[0];
  if (!field || NOT_DETAILS.has(field)) return error;
  return new ApiError(error.code, `details.${error.message}`, error.status, error.headers);
}

/** The mailpiece resource a creative of this kind makes. */
export function kindOf(resourceType: unknown): Resource {
  const name = CREATIVE_KINDS[resourceType as CreativeKind] as string | undefined;
  const resource = name === undefined ? undefined : findResource(name);
  if (!resource?.mailpiece) throw new Error(`no mailpiece kind for creative resource_type ${String(resourceType)}`);
  return resource;
}

/** What a row of an uploaded audience adds to its piece: merge variables and metadata from its columns. */
export interface RowExtras {
  merge_variables: Record<string, string>;
  metadata: Record<string, string>;
}

/**
 * A recipient's piece body: the creative's sender, artwork (its stored files named, not copied) and
 * details, the campaign's use type and billing; `to` is an address id, or an inline address from a row,
 * whose merge variables and metadata join (and win over) the creative's.
 */
export function pieceBody(
  creative: ApiObject,
  campaign: ApiObject,
  to: string | Record<string, string>,
  now = nowIso(),
  row?: RowExtras,
  files: CreativeFiles = {},
): Record<string, unknown> {
  const details = isPlainObject(creative.details) ? creative.details : {};
  const body: Record<string, unknown> = { ...details, to };
  if (creative.from !== null && creative.from !== undefined) body.from = creative.from;
  for (const side of CREATIVE_ARTWORK) if (typeof creative[side] === 'string') body[side] = creative[side];
  Object.assign(body, files);
  if (creative.description !== null) body.description = creative.description;
  const metadata = { ...(isPlainObject(creative.metadata) ? creative.metadata : {}), ...row?.metadata };
  if (Object.keys(metadata).length) body.metadata = metadata;
  if (row && Object.keys(row.merge_variables).length)
    body.merge_variables = {
      ...(isPlainObject(details.merge_variables) ? details.merge_variables : {}),
      ...row.merge_variables,
    };
  if (campaign.use_type !== null) body.use_type = campaign.use_type;
  if (campaign.billing_group_id !== null) body.billing_group_id = campaign.billing_group_id;
  // a send date still ahead holds the pieces until then; one passed sends them now. The campaign's
  // cancellation window holds them as long (a send_date is the end of a piece's window, spec).
  const windowMinutes = campaign.cancel_window_campaign_minutes;
  const windowEnd =
    typeof windowMinutes === 'number' && windowMinutes > 0
      ? new Date(Date.parse(now) + windowMinutes * 60_000).toISOString()
      : undefined;
  const sendDate = typeof campaign.send_date === 'string' && campaign.send_date > now ? campaign.send_date : undefined;
  const holdUntil = [sendDate, windowEnd]
    .filter((d): d is string => d !== undefined)
    .sort()
    .at(-1);
  if (holdUntil) body.send_date = holdUntil;
  return body;
}

/** The creative's sender as given (an address id, read; or inline, built to be saved with it). */
const senderOf = (services: Services, scope: Scope, settings: Settings, given: CreativeBody['from'], now: string) =>
  given === undefined
    ? undefined
    : resolveParty(services.objects, scope, given, 'from', { strictness: settings.us_mail_strictness, now });

/** An address id of the right form that no recipient has: the checks need a `to`, and read no address. */
const SOME_RECIPIENT = 'adr_recipient';

export async function createCreative(
  services: Services,
  scope: Scope,
  settings: Settings,
  body: CreativeBody,
  claim?: IdempotencyClaim,
  /** an AI agent asks: the campaign becomes agent-driven (../agents/driven.ts) */
  agent = false,
): Promise<ApiObject> {
  const campaign = await services.objects.get(scope, campaigns.name, body.campaign_id);
  if (!campaign) throw new ApiError('not_found', `campaign_id ${body.campaign_id} not found`, 404);
  if (agent) await markAgentDriven(services.objects, scope, campaign.id);
  const now = nowIso();
  const from = await senderOf(services, scope, settings, body.from, now);
  const creative: ApiObject = {
    id: newId(creatives.idPrefix),
    resource_type: body.resource_type,
    campaign_id: campaign.id,
    from: from?.address.id ?? null,
    description: body.description ?? null,
    metadata: body.metadata ?? {},
    // an uploaded side shows null, as a piece shows nothing of an uploaded file
    ...Object.fromEntries(CREATIVE_ARTWORK.map((side) => [side, typeof body[side] === 'string' ? body[side] : null])),
    details: body.details ?? {},
    template_preview_urls: {},
    template_previews: [],
    campaigns: [],
    // the vendor shows `deleted` on every creative
    deleted: false,
    date_created: now,
    date_modified: now,
    object: creatives.object,
  };
  const kind = kindOf(body.resource_type);
  const uploads = uploadedSides(body);
  // the kind's own checks, on the piece a run would make (a sender given inline stands as given)
  const piece = { ...pieceBody(creative, campaign, SOME_RECIPIENT, now), ...uploads };
  let checked: Record<string, unknown>;
  try {
    checked = checkPiece(kind, { ...piece, ...(body.from ? { from: body.from } : {}) });
  } catch (error) {
    throw inDetails(error);
  }
  // details keep their checked types: a multipart or form body gives `double_sided` as a string, which
  // each run's pieces (made without this validation) would otherwise carry as given
  creative.details = Object.fromEntries(Object.keys(body.details ?? {}).map((key) => [key, checked[key]]));
  // the cards and buckslips its details name exist now (each run's pieces check them again)
  await insertRefs(services.objects, scope, checked);
  // then the files' own checks, as a direct create makes them; stored once, for every run
  const stored = await storeSides(services, creative.id, kind, checked, uploads, now);
  const inline = from?.inline ? [from.address] : [];
  try {
    await reopenApproval(services.objects, scope, campaign.id, 'its creatives');
    // a creative lives under its campaign: read with it (campaigns.ts) and deleted with it
    return await services.objects.insert(scope, creatives.name, creative, {
      parent: campaign.id,
      claim,
      objects: inline.map((address) => ({ kind: 'addresses', object: address, events: [addressCreated] })),
      blobs: stored.blobs,
      pieceInputs: stored.inputs,
      takes: scope.mode === 'live' && inline.length ? liveAddressSlots(scope, settings, inline.length) : undefined,
      returnAddresses: from && [from.address.id],
    });
  } catch (error) {
    await discardStoredFiles(services.assets, stored.blobs).catch(() => undefined); // the refusal is the answer
    throw error;
  }
}

/**
 * Updates a creative's sender, description or metadata; runs from now on make their pieces with them
 * (pieces made already keep theirs). An inline sender is saved to the address book as a return address.
 */
export async function updateCreative(
  services: Services,
  scope: Scope,
  settings: Settings,
  id: string,
  body: CreativeUpdate,
  /** an AI agent asks: the creative's campaign becomes agent-driven (../agents/driven.ts) */
  agent = false,
): Promise<ApiObject> {
  if (agent) await markCreativeCampaign(services, scope, id);
  const now = nowIso();
  const from = await senderOf(services, scope, settings, body.from, now);
  const inline = from?.inline ? [from.address] : [];
  const changes: Record<string, unknown> = {};
  if (from) changes.from = from.address.id;
  if (body.description !== undefined) changes.description = body.description;
  if (body.metadata !== undefined) changes.metadata = body.metadata;
  if (from) await reopenForCreative(services, scope, id, "a creative's sender");
  const updated = await services.objects.transition(scope, creatives.name, id, {
    change: (current) => ({ ...current, ...changes }),
    objects: inline.map((address) => ({ kind: 'addresses', object: address, events: [addressCreated] })),
    takes: scope.mode === 'live' && inline.length ? liveAddressSlots(scope, settings, inline.length) : undefined,
    returnAddresses: from && [from.address.id],
  });
  if (!updated) throw new ApiError('not_found', 'creative not found', 404);
  return updated;
}

/** Marks the creative's campaign agent-driven (an agent changes the creative). */
async function markCreativeCampaign(services: Services, scope: Scope, id: string) {
  const creative = await services.objects.get(scope, creatives.name, id);
  if (typeof creative?.campaign_id === 'string') await markAgentDriven(services.objects, scope, creative.campaign_id);
}

/** Reopens the approval of the creative's campaign (before a change of the creative, or its delete). */
export async function reopenForCreative(services: Services, scope: Scope, id: string, what = 'its creatives') {
  const creative = await services.objects.get(scope, creatives.name, id);
  if (typeof creative?.campaign_id === 'string')
    await reopenApproval(services.objects, scope, creative.campaign_id, what);
}

/** The campaign's creatives, oldest first. */
export async function creativesOf(services: Services, scope: Scope, campaignId: string): Promise<ApiObject[]> {
  const found: ApiObject[] = [];
  let after: string | undefined;
  do {
    const page = await services.objects.list(scope, creatives.name, {
      limit: 100,
      after,
      filters: [{ column: 'campaign_id', match: 'equals', value: campaignId }],
      sort: { column: 'date_created', direction: 'asc' },
    });
    found.push(...page.data);
    after = page.next;
  } while (after);
  return found;
}
