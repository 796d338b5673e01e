// Creating a mailpiece of any kind, driven by its catalog declaration: parties resolved (inline ones
// saved to the address book), placement rules on the resolved addresses, artwork resolved and uploads
// stored, merge variables checked, dates computed; the piece, its new addresses, its inputs, its
// uploads, its event and its idempotency answer then commit together. The piece waits in `processed`
// for the renderer. An AI agent's piece, alone or in an agent-driven campaign's run, meets the agent
// limits here, whatever face asked for it.
import { assertQrPlacement } from './qr-placement';
import { ApiError } from '../../base/errors';
import { eventOf } from '../../catalog';
import { billingGroups } from '../../catalog/billing-groups';
import { fieldPath } from '../../catalog/rules';
import type { MailpieceTraits, Resource } from '../../catalog/types';
import type { Settings } from '../accounts/settings';
import type { Services } from '../services';
import type { ApiObject, Scope, StoredObjects } from '../../store/objects';
import type { IdempotencyClaim } from '../../store/idempotency-keys';
import type { RunRecipient } from '../../store/run-recipients';
import type { CounterTake, ObjectRef } from '../../store/commit';
import { agentPiece } from '../agents/limits';
import { confirmedSend, type SendConfirmation } from '../agents/confirmations';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { mailpieceBodyView } from '../../catalog/mailpieces/define';
import { newId } from '../../base/ids';
import { nowIso } from '../../base/time';
import { addressCreated, resolveParty, type Party } from './parties';
import { liveAddressSlots } from '../addresses/address-book';
import { discardStoredFiles, resolveArtwork } from './artwork';
import { assertMergeVariables } from './merge';
import { insertRefs } from './inserts';
import { expectedDeliveryDate, sendDateOf } from './schedule';
import { drawableBankAccount } from './checks';
import { isAbroad } from '../../catalog/mailpieces/rules';
import { RENDER_PIECE, RENDER_PIECE_OPTIONS, type RenderPieceData } from '../../platform/jobs/names';
import { pdfKey } from '../../platform/assets/links';
import { assertTrackable, trackingNumberFor } from './tracking-numbers';

export interface PieceRequest {
  services: Services;
  scope: Scope;
  settings: Settings;
  resource: Resource;
  body: Record<string, unknown>;
  claim?: IdempotencyClaim;
  /**
   * a campaign run's piece: the campaign it carries, the recipient recorded in its commit, and the person
   * it mails (engine/domain/addresses/person-key.ts), recorded so the run mails that person once
   */
  campaign?: {
    id: string;
    recipient: Omit<RunRecipient, 'pieceId'>;
    personKey?: string;
    /** the piece's place in its run (0, 1, ...): its render waits behind pieces made on their own */
    position?: number;
  };
  /** template versions a run has read already (ArtworkContext.versions) */
  versions?: Map<string, StoredObjects['template_versions']>;
  /**
   * an AI agent's piece, held to the agent limits (engine/domain/agents/limits.ts): `own`, made on its
   * own, takes its place of the day; `run`, made by an agent-driven campaign's run, whose start took it
   */
  agent?: 'own' | 'run';
  /** an agent's confirmation token for this send: verified first, used in the piece's own commit */
  confirmation?: SendConfirmation;
  /** objects that must still be live when the piece commits (a run's campaign: a deleted one mails nothing) */
  requires?: ObjectRef[];
}

/** The fields the piece copies from its body as given (the rest are resolved or computed here). */
const RESOLVED = new Set(['to', 'from', 'send_date', 'use_type', 'bank_account', 'check_number']);
const STAMPED = new Set(['id', 'date_created', 'date_modified', 'deleted', 'object']);

function traitsOf(resource: Resource): MailpieceTraits {
  if (!resource.mailpiece) throw new Error(`${resource.name} is not a mailpiece kind`);
  return resource.mailpiece;
}

/** The use type given, else the account's default_use_type (a campaign's create asks the same). */
export function useTypeOf(body: Record<string, unknown>, settings: Settings): string {
  const given = body.use_type;
  if (typeof given === 'string') return given;
  if (settings.default_use_type) return settings.default_use_type;
  throw new ApiError(
    'invalid',
    'use_type is required: marketing or operational (null only when the account has a default use_type)',
    422,
  );
}

function runPlacementRules(traits: MailpieceTraits, view: Record<string, unknown>): void {
  const at = fieldPath('');
  for (const rule of traits.placementRules) {
    const violation = rule(view, at);
    if (violation) throw new ApiError(violation.code ?? 'invalid', violation.message, violation.status ?? 422);
  }
}

async function assertBillingGroup(services: Services, scope: Scope, id: unknown): Promise<void> {
  if (typeof id !== 'string') return;
  if (!(await services.objects.get(scope, billingGroups.name, id)))
    throw new ApiError('not_found', `billing_group_id ${id} not found`, 404);
}

/** The body's own fields the object shows, with defaults (else null) for those left out; later fields override. */
function copiedFields(resource: Resource, body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(resource.schema.properties)) {
    if (STAMPED.has(key) || RESOLVED.has(key)) continue;
    if (body[key] !== undefined) out[key] = body[key];
    else out[key] = schema.default ?? null;
  }
  return out;
}

/** The printed text fields that take merge variables, checked like artwork HTML (strictness, syntax). */
function mergedText(traits: MailpieceTraits, body: Record<string, unknown>) {
  return traits.mergedText.flatMap((field) => {
    const text = body[field];
    return typeof text === 'string' ? [{ field, html: text, required: [] }] : [];
  });
}

/** Reads the fields the create path knows by name, typed (see catalog/mailpieces/define.ts). */
const BODY_VIEW = TypeCompiler.Compile(mailpieceBodyView);

export async function createPiece(request: PieceRequest): Promise<ApiObject> {
  const { services, scope, settings, resource, claim, campaign } = request;
  // an agent's piece: refused past the agent limits, its send date after the cancellation window
  const agent = request.agent
    ? agentPiece(scope, settings, resource, request.body, new Date(), request.agent === 'own')
    : undefined;
  const body = agent?.body ?? request.body;
  // a token that does not confirm this send refuses it before anything is stored
  const confirmation = request.confirmation
    ? await confirmedSend(services.store, scope.accountId, resource.name, request.confirmation)
    : undefined;
  if (!BODY_VIEW.Check(body)) throw new Error(`a ${resource.name} body its own schema took fails the shared view`);
  const traits = traitsOf(resource);
  // read before the body is narrowed to the shared view, which letters' own fields are not part of
  const extraService = request.body.extra_service;
  assertTrackable(services.config, scope, extraService);
  const now = nowIso();
  const objects = services.objects;
  const options = { strictness: settings.us_mail_strictness, now, streets: services.store.streets };
  const to = await resolveParty(objects, scope, body.to, 'to', options);
  const from =
    body.from === undefined || body.from === null
      ? undefined
      : await resolveParty(objects, scope, body.from, 'from', options);
  runPlacementRules(traits, { ...body, to: to.address, from: from?.address });
  assertQrPlacement(resource, body);
  const useType = useTypeOf(body, settings);
  await assertBillingGroup(services, scope, body.billing_group_id);
  const inserts = await insertRefs(objects, scope, body);
  // drawn now: the artwork's files are stored under it (a cancel finds them from the piece)
  const id = newId(resource.idPrefix, traits.idLength);
  const artwork = await resolveArtwork(objects, scope, traits.artwork, body, now, {
    product: {
      kind: resource.name,
      size: String(body.size ?? ''),
      abroad: isAbroad({ to: to.address }),
      doubleSided: body.double_sided !== false,
    },
    remote: {
      maxBytes: services.config.maxFileBytes,
      timeoutMs: services.config.remoteFileTimeoutMs,
      allowedNetworks: services.config.allowedPrivateNetworks,
    },
    assets: services.assets,
    pieceId: id,
    versions: request.versions,
  });
  // the artwork's files are in the asset store already: a piece refused from here on leaves none
  try {
    assertMergeVariables(
      [...artwork.html, ...mergedText(traits, body)],
      body.merge_variables,
      settings.merge_variable_strictness,
    );
    const bankAccount =
      typeof body.bank_account === 'string' ? await drawableBankAccount(objects, scope, body.bank_account) : undefined;

    // drawn last of all checks: a letter refused after its draw leaves a gap in the serials, never a repeat
    const trackingNumber =
      Object.hasOwn(resource.schema.properties, 'tracking_number') && typeof extraService === 'string'
        ? await trackingNumberFor(services.store, services.config, scope, extraService, id)
        : null;
    const sendDate = sendDateOf(body.send_date, now);
    const mailType = String(body.mail_type ?? 'usps_first_class');
    const piece: ApiObject = {
      id,
      ...copiedFields(resource, body),
      to: to.address,
      // no key rather than null: the vendor's schema types from as an address
      ...(from ? { from: from.address } : {}),
      // the key of the PDF the render will store: the piece answers its link from the start, as the
      // vendor does, and the link answers 404 until the file is there
      url: pdfKey(resource, id),
      carrier: 'USPS',
      tracking_events: [],
      thumbnails: [],
      merge_variables: body.merge_variables ?? null,
      mail_type: mailType,
      send_date: sendDate,
      expected_delivery_date: expectedDeliveryDate(sendDate, mailType, isAbroad({ to: to.address })),
      use_type: useType,
      description: body.description ?? null,
      metadata: body.metadata ?? {},
      campaign_id: campaign?.id ?? null,
      billing_group_id: body.billing_group_id ?? null,
      status: 'processed',
      failure_reason: null,
      ...artwork.templateFields,
      ...kindFields(resource, body, trackingNumber, bankAccount),
      date_created: now,
      date_modified: now,
      object: resource.object,
    };
    const inline = [to, from].filter((p): p is Party => p?.inline === true);
    // One commit: the piece, its new addresses, its uploads, inputs and render job (no piece without its
    // job, no job without its piece), its event and answer; a check's number and live inline addresses'
    // places in the edition limit are taken in it, so numbers never repeat and no place is lost or overdrawn.
    return await objects.insert(scope, resource.name, piece, {
      claim,
      objects: inline.map((p) => ({ kind: 'addresses', object: p.address, events: [addressCreated] })),
      events: resource.events.length ? createdEvents(resource, piece) : undefined,
      blobs: artwork.blobs,
      pieceInputs: [
        { pieceId: piece.id, kind: resource.name, inputs: { artwork: artwork.sources, qr_code: body.qr_code ?? null } },
      ],
      jobs: [
        services.jobs.enqueueWith(RENDER_PIECE, { piece: piece.id } satisfies RenderPieceData, {
          ...RENDER_PIECE_OPTIONS,
          // fair turns: a run's n-th piece renders after every account's first n, so one account's
          // 10,000-piece run does not hold back another's single postcard
          priority: campaign ? -1 - (campaign.position ?? 0) : 0,
        }),
      ],
      takes: placesTaken(scope.mode === 'live' ? liveAddressSlots(scope, settings, inline.length) : [], agent?.takes),
      // the token is spent only by the piece it confirms: a refused create leaves it for a retry
      confirmations: confirmation && [confirmation],
      checkNumber: bankAccount && { bankAccountId: bankAccount.id, given: body.check_number },
      // a run's recipient commits with its piece: the unique recipient row refuses a second piece
      runRecipients: campaign && [{ ...campaign.recipient, pieceId: piece.id }],
      mailings: campaign?.personKey
        ? [
            {
              campaignId: campaign.id,
              creativeId: campaign.recipient.creativeId,
              runId: campaign.recipient.runId,
              personKey: campaign.personKey,
              pieceId: piece.id,
            },
          ]
        : undefined,
      // the sender is the account's own: never a recipient of a whole-book audience (a campaign's
      // creative marked its sender when it was created or changed)
      returnAddresses: from && !campaign ? [from.address.id] : undefined,
      // its cards and buckslips (and a run's campaign) must still be live as it commits
      requires: inserts.length || request.requires?.length ? [...inserts, ...(request.requires ?? [])] : undefined,
    });
  } catch (error) {
    await discardStoredFiles(services.assets, artwork.blobs).catch(() => undefined); // the refusal is the answer
    throw error;
  }
}

const placesTaken = (own: CounterTake[], more: CounterTake[] = []) =>
  own.length + more.length > 0 ? [...own, ...more] : undefined;

/** `*.created`, and a letter's return envelope comes into being with it (`letter.return_envelope.created`). */
const createdEvents = (resource: Resource, piece: ApiObject) =>
  piece.return_envelope === true
    ? [eventOf(resource, 'created'), eventOf(resource, 'return_envelope.created')]
    : [eventOf(resource, 'created')];

/** Fields of one kind that are not copied from the body as given. */
function kindFields(
  resource: Resource,
  body: Record<string, unknown>,
  trackingNumber: string | null,
  bankAccount?: ApiObject,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (bankAccount) {
    fields.bank_account = bankAccount;
    fields.memo = body.memo ?? null;
    fields.message = body.message ?? null;
  }
  if (Object.hasOwn(resource.schema.properties, 'tracking_number')) {
    fields.tracking_number = trackingNumber;
  }
  if (Object.hasOwn(resource.schema.properties, 'return_envelope'))
    fields.return_envelope = body.return_envelope !== false && body.return_envelope !== undefined;
  if (Object.hasOwn(resource.schema.properties, 'custom_envelope')) fields.custom_envelope = null;
  return fields;
}
