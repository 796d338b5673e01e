// Declaring a mailpiece kind: the shared part (to/from, artwork, merge variables, send_date, mail_type,
// use_type, metadata, billing group, create/retrieve/list/cancel, filters, events) is built here once;
// a kind adds only its artwork sides, sizes, own fields and rules. The engine's one mailpiece handler
// reads the same declaration, so a new kind costs a catalog file.
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';
import { dateFilter, description, metadata } from '../fields';
import { filter, listOperation, type ListFilter } from '../list-filters';
import { defineResource } from '../resource';
import type { Operation, QrPages, Rule } from '../types';
import {
  addressRef,
  artwork,
  billingGroupId,
  fsc,
  mailType,
  mergeVariables,
  sendDate,
  sharedObjectFields,
  sizeOf,
  templateIdFields,
  useType,
  type UnsetTemplateIds,
} from './fields';
import { mergeVariableRules, sendDateRule, sharedPlacementRules } from './rules';
import { pieceSample } from './sample';
import { qrCode, qrCodeRule } from './qr-code';
import { NORMAL_LIFE, PIECE_EVENTS, SIMULATED_EVENTS, TRACKING_EVENTS } from '../event-types';
import type { ArtworkSide, MailpieceTraits } from '../types';

export interface MailpieceDeclaration {
  name: string;
  title: string;
  object: string;
  idPrefix: string;
  /** only where ids differ from `<prefix>_<letters and digits>` (snap packs) */
  idPattern?: string;
  /** length of the random part of new ids */
  idLength?: number;
  description: string;
  artwork: readonly ArtworkSide[];
  /** the kind's sizes, the first the default; none for checks */
  sizes?: readonly string[];
  /** which optional shared create fields the kind takes */
  takes: { qr_code: QrPages | false; fsc: boolean };
  /** `from` is required whatever the destination (letters, checks) */
  fromRequired?: boolean;
  /** mail_type schema when the kind narrows it (checks: first class only) */
  mailType?: TSchema;
  /** the kind's own create fields */
  createFields?: TProperties;
  /**
   * Template id fields of artwork given without a template: null where the vendor's schema says they
   * may be (cards, mailers, snap packs), left out where it types them as a plain string (letters, checks)
   */
  unsetTemplateIds?: UnsetTemplateIds;
  /** the kind's own response fields */
  objectFields?: TProperties;
  /** body rules of the kind */
  rules?: readonly Rule[];
  /** rules over the resolved `to` and `from` (see ./rules.ts) */
  placementRules?: readonly Rule[];
  /** list filters besides the shared ones */
  filters?: ListFilter[];
  /** its tracking and other events besides the ones every piece has (default: TRACKING_EVENTS), or none at all (snap packs) */
  events?: readonly string[] | 'none';
  /** body fields only a Service-Version on or after the date may send or see */
  fieldsSince?: Record<string, string>;
  /** text fields the engine prints that take merge variables, like the artwork (a check's message) */
  mergedText?: readonly string[];
  sample: Record<string, unknown>;
}

const sharedFilters = (sizes: readonly string[] | undefined): ListFilter[] => [
  filter(
    'status',
    'status',
    'equals',
    Type.Union([Type.Literal('processed'), Type.Literal('rendered'), Type.Literal('failed')], {
      description: 'Only pieces with this render status.',
    }),
  ),
  ...(sizes
    ? [
        filter(
          'size',
          'size',
          'any',
          Type.Array(sizeOf(sizes, 'Size'), { description: `Only these sizes (${sizes.join(', ')}).` }),
        ),
      ]
    : []),
  filter(
    'scheduled',
    'send_date',
    'scheduled',
    Type.Boolean({ description: 'true: only pieces with a send_date after their creation; false: the others.' }),
  ),
  filter('send_date', 'send_date', 'range', dateFilter('send date')),
  // no default here: a filter left out filters nothing
  filter(
    'mail_type',
    'mail_type',
    'equals',
    Type.Union([Type.Literal('usps_first_class'), Type.Literal('usps_standard')], {
      description: 'Only pieces sent with this mail type.',
    }),
  ),
  filter('campaign_id', 'campaign_id', 'equals', Type.String({ description: 'Only pieces of this campaign.' })),
];

/**
 * The create fields the one create path (engine/domain/pieces) reads by name, as every kind has them, or
 * wider than any kind narrows them (a size of its own, a literal mail type). The path checks a valid
 * body against this view once, which types those fields without a cast; other fields stay as given.
 */
export const mailpieceBodyView = Type.Object(
  {
    to: addressRef('The recipient'),
    from: Type.Optional(addressRef('The sender')),
    description: Type.Optional(description()),
    metadata: Type.Optional(metadata()),
    mail_type: Type.Optional(Type.String()),
    merge_variables: Type.Optional(mergeVariables()),
    send_date: Type.Optional(sendDate()),
    use_type: Type.Optional(useType()),
    billing_group_id: Type.Optional(billingGroupId()),
    size: Type.Optional(Type.String()),
    double_sided: Type.Optional(Type.Boolean()),
    qr_code: Type.Optional(qrCode('numbers')),
    bank_account: Type.Optional(Type.String()),
    check_number: Type.Optional(Type.Integer()),
  },
  { additionalProperties: true },
);

function createBody(d: MailpieceDeclaration) {
  const sides = Object.fromEntries(
    d.artwork.map((side) => [side.field, side.required ? artwork(side.what) : Type.Optional(artwork(side.what))]),
  );
  return Type.Object({
    to: addressRef('The recipient'),
    from: d.fromRequired ? addressRef('The sender') : Type.Optional(addressRef('The sender (US)')),
    ...sides,
    description: Type.Optional(description()),
    metadata: Type.Optional(metadata()),
    mail_type: Type.Optional(d.mailType ?? mailType()),
    merge_variables: Type.Optional(mergeVariables()),
    send_date: Type.Optional(sendDate()),
    use_type: Type.Optional(useType()),
    billing_group_id: Type.Optional(billingGroupId()),
    ...(d.sizes ? { size: Type.Optional(sizeOf(d.sizes, 'Size')) } : {}),
    ...(d.takes.qr_code ? { qr_code: Type.Optional(qrCode(d.takes.qr_code)) } : {}),
    ...(d.takes.fsc ? { fsc: Type.Optional(fsc()) } : {}),
    ...d.createFields,
  });
}

/**
 * The engine's extension for trying a flow without live keys (docs/compat-notes.md, "Simulation"): a
 * rendered test piece goes to production and gets simulated tracking events up to `through`, then
 * `event` if given. The `event` values a kind takes are the simulated ones its own event types name
 * (snap packs have none, so they take the plain tracking exceptions); what cannot follow what is the
 * engine's to refuse (engine/domain/production/simulate-plan.ts).
 */
const simulateBody = (d: MailpieceDeclaration) => {
  const own = d.events === 'none' || d.events === undefined ? TRACKING_EVENTS : d.events;
  const takes = (e: string) => e === 'rejected' || own.includes(e) || own.includes(`certified.${e}`);
  const events = SIMULATED_EVENTS.filter(takes);
  const certified = events.includes('pickup_available');
  return Type.Object({
    through: Type.Optional(
      Type.Union(
        NORMAL_LIFE.map((step) => Type.Literal(step)),
        {
          description:
            'The last step of the normal life to simulate: mailed, in_transit, … delivered (default delivered, or with `event` the step that event follows).',
          examples: ['delivered'],
        },
      ),
    ),
    event: Type.Optional(
      Type.Union(
        events.map((e) => Type.Literal(e)),
        {
          description: `An event to simulate after the normal life up to \`through\`: ${events.join(', ')}. international_exit is for a piece addressed outside the US${certified ? '; pickup_available and issue for certified letters; return_envelope.* for a letter sent with return_envelope (after it is delivered)' : ''}; rejected for a piece not yet mailed.`,
          examples: ['returned_to_sender'],
        },
      ),
    ),
    ...(certified
      ? {
          details: Type.Optional(
            Type.Object(
              {
                event: Type.Optional(Type.String({ description: 'The detail event, e.g. notice_left.' })),
                description: Type.Optional(Type.String()),
                notes: Type.Optional(Type.String()),
                action_required: Type.Optional(Type.Boolean()),
              },
              {
                additionalProperties: false,
                description: "A certified letter's tracking details for `event` (else they follow from its name).",
              },
            ),
          ),
        }
      : {}),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'With event rejected: the reason the print room gives.',
      }),
    ),
  });
};

export function defineMailpiece<const N extends string>(d: MailpieceDeclaration & { name: N }) {
  const path = `/v1/${d.name}`;
  const lower = d.title.toLowerCase();
  const body = createBody(d);
  const operations: Operation[] = [
    {
      name: 'create',
      method: 'POST',
      path,
      summary: `Create a ${lower}`,
      body,
      rules: [
        mergeVariableRules,
        sendDateRule,
        ...(d.takes.qr_code ? [qrCodeRule(d.takes.qr_code)] : []),
        ...(d.rules ?? []),
      ],
      response: 'object',
      idempotent: true,
      mails: 'now',
      files: d.artwork.map((side) => side.field),
    },
    { name: 'retrieve', method: 'GET', path: `${path}/{id}`, summary: `Retrieve a ${lower}`, response: 'object' },
    listOperation(path, `List ${d.name.replace(/_/g, ' ')}`, {
      filters: [...sharedFilters(d.sizes), ...(d.filters ?? [])],
      sorts: ['date_created', 'send_date'],
    }),
    {
      name: 'cancel',
      method: 'DELETE',
      path: `${path}/{id}`,
      summary: `Cancel a ${lower}`,
      response: 'deleted',
    },
    {
      name: 'simulate',
      method: 'POST',
      path: `${path}/{id}/simulate`,
      summary: `Simulate a test ${lower}'s production and tracking`,
      body: simulateBody(d),
      response: 'object',
    },
  ];
  const traits: MailpieceTraits = {
    artwork: d.artwork,
    placementRules: [...sharedPlacementRules, ...(d.placementRules ?? [])],
    idLength: d.idLength ?? 16,
    sized: Boolean(d.sizes),
    takesFsc: d.takes.fsc,
    qrPages: d.takes.qr_code,
    mergedText: d.mergedText ?? [],
  };
  const events =
    d.events === 'none' ? [] : [...PIECE_EVENTS, ...(d.events ?? TRACKING_EVENTS)].map((e) => `${d.object}.${e}`);
  return {
    ...defineResource({
      name: d.name,
      title: d.title,
      object: d.object,
      idPrefix: d.idPrefix,
      idPattern: d.idPattern,
      description: d.description,
      fields: {
        ...sharedObjectFields(d.fromRequired),
        ...templateIdFields(d.artwork, d.unsetTemplateIds),
        ...(d.sizes ? { size: sizeOf(d.sizes, 'Size') } : {}),
        ...(d.takes.fsc ? { fsc: fsc() } : {}),
        ...(d.takes.qr_code ? { qr_code: Type.Optional(qrCode(d.takes.qr_code)) } : {}),
        ...d.objectFields,
      },
      operations,
      events,
      sample: pieceSample(d),
    }),
    mailpiece: traits,
    fieldsSince: d.fieldsSince,
  };
}
