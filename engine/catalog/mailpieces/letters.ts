// Letters (spec: Letter, Letters): one file of artwork, color required, envelopes and inserts, extra
// services, and `size`, which only Service-Version 2024-01-01 or later may send or see.
import { Type } from '@sinclair/typebox';
import { nullable } from '../fields';
import { filter } from '../list-filters';
import type { Rule } from '../types';
import { defineMailpiece } from './define';
import { CERTIFIED_EVENTS, RETURN_ENVELOPE_EVENTS, TRACKING_EVENTS } from '../event-types';
import { isAbroad, notWith } from './rules';

const extraService = () =>
  nullable(
    Type.Union([Type.Literal('certified'), Type.Literal('certified_return_receipt'), Type.Literal('registered')]),
    {
      description:
        'certified or certified_return_receipt (US), registered (US or abroad), or null; not with usps_standard nor us_legal.',
      examples: ['certified'],
    },
  );
const addressPlacement = () =>
  Type.Union(
    ['top_first_page', 'insert_blank_page', 'bottom_first_page_center', 'bottom_first_page'].map((p) =>
      Type.Literal(p),
    ),
    {
      default: 'top_first_page',
      description:
        'Where the address goes: top_first_page (default), insert_blank_page (an extra page), bottom_first_page_center or bottom_first_page.',
      examples: ['top_first_page'],
    },
  );
const idList = (prefix: string, what: string) =>
  nullable(
    Type.Array(
      Type.String({ pattern: `^${prefix}_[a-zA-Z0-9]+$`, errorMessage: `must be a ${what} id (${prefix}_...)` }),
      {
        maxItems: 1,
        description: `At most one ${what} id (${prefix}_...) to insert, or null; not for us_legal.`,
      },
    ),
  );
const returnEnvelope = () =>
  Type.Union([Type.Boolean(), Type.Literal('no_9_single_window')], {
    default: false,
    description: 'Include a return envelope: true, false (default) or no_9_single_window; needs perforated_page.',
    examples: [false],
  });
const perforatedPage = () =>
  nullable(Type.Integer({ minimum: 1, description: 'The page (from 1) to perforate for the return envelope slip.' }));
const customEnvelope = () =>
  nullable(Type.String({ pattern: '^env_[a-zA-Z0-9]+$', errorMessage: 'must be a custom envelope id (env_...)' }), {
    description: 'A custom envelope (env_...) from the account inventory.',
  });
const color = () => Type.Boolean({ description: 'Print in color (true) or black and white.', examples: [false] });
const doubleSided = () =>
  Type.Boolean({ default: true, description: 'Print on both sides of each sheet (default true).', examples: [true] });

const hasReturnEnvelope = (body: Record<string, unknown>) =>
  body.return_envelope !== undefined && body.return_envelope !== false;

/** return_envelope and perforated_page come together (spec: invalid_perforation_return_envelope). */
const perforationWithEnvelope: Rule = (body, at) => {
  const perforated = body.perforated_page !== undefined && body.perforated_page !== null;
  if (hasReturnEnvelope(body) === perforated) return undefined;
  return {
    code: 'invalid_perforation_return_envelope',
    message: perforated
      ? `${at('perforated_page')} needs ${at('return_envelope')}`
      : `${at('perforated_page')} is required when ${at('return_envelope')} is given`,
  };
};

/** This engine keeps no envelope inventory, so a custom envelope can never be drawn. */
const noEnvelopeInventory: Rule = (body, at) =>
  typeof body.custom_envelope === 'string'
    ? {
        code: 'custom_envelope_inventory_depleted',
        message: `${at('custom_envelope')} ${body.custom_envelope} has no inventory on this account`,
      }
    : undefined;

/** Certified mail is a US service; registered goes anywhere (the vendor accepts it to US addresses too). */
const certifiedDomesticOnly: Rule = (body, at) => {
  if (typeof body.extra_service === 'string' && body.extra_service.startsWith('certified') && isAbroad(body))
    return {
      code: 'invalid_international_feature',
      message: `${at('extra_service')} ${body.extra_service} is only for US addresses; use registered`,
    };
  return undefined;
};

export const letters = defineMailpiece({
  name: 'letters',
  title: 'Letter',
  object: 'letter',
  idPrefix: 'ltr',
  description: 'Letters printed from a file of artwork and mailed in an envelope, optionally certified or registered.',
  artwork: [{ field: 'file', what: 'The letter artwork', required: true, named: false }],
  unsetTemplateIds: 'absent',
  sizes: ['us_letter', 'us_legal'],
  events: [
    ...TRACKING_EVENTS,
    ...CERTIFIED_EVENTS.map((e) => `certified.${e}`),
    'return_envelope.created',
    ...RETURN_ENVELOPE_EVENTS.map((e) => `return_envelope.${e}`),
  ],
  takes: { qr_code: 'numbers', fsc: true },
  fromRequired: true,
  createFields: {
    color: color(),
    double_sided: Type.Optional(doubleSided()),
    address_placement: Type.Optional(addressPlacement()),
    extra_service: Type.Optional(extraService()),
    cards: Type.Optional(idList('card', 'card')),
    buckslips: Type.Optional(idList('bck', 'buckslip')),
    return_envelope: Type.Optional(returnEnvelope()),
    perforated_page: Type.Optional(perforatedPage()),
    custom_envelope: Type.Optional(customEnvelope()),
  },
  objectFields: {
    color: color(),
    double_sided: doubleSided(),
    address_placement: addressPlacement(),
    extra_service: extraService(),
    tracking_number: nullable(
      Type.String({ description: 'USPS tracking number of a certified or registered letter.' }),
    ),
    cards: nullable(Type.Array(Type.String())),
    buckslips: nullable(Type.Array(Type.String())),
    return_envelope: Type.Boolean(),
    return_envelope_tracking_events: Type.Optional(
      Type.Array(Type.Object({}, { additionalProperties: true }), {
        description:
          'Engine extension: the tracking events of the return envelope coming back (In Transit, In Local Area, Processed for Delivery, Re-Routed, Returned to Sender), oldest first; absent until its first scan.',
      }),
    ),
    perforated_page: perforatedPage(),
    custom_envelope: nullable(Type.Object({}, { additionalProperties: true })),
  },
  rules: [
    perforationWithEnvelope,
    noEnvelopeInventory,
    notWith('extra_service', 'mail_type', ['usps_standard']),
    notWith('extra_service', 'size', ['us_legal']),
    notWith('cards', 'size', ['us_legal']),
    notWith('fsc', 'size', ['us_legal']),
    notWith('qr_code', 'size', ['us_legal']),
  ],
  placementRules: [certifiedDomesticOnly],
  filters: [
    filter('color', 'color', 'equals', Type.Boolean({ description: 'Only color (true) or black and white letters.' })),
  ],
  fieldsSince: { size: '2024-01-01' },
  sample: {
    id: 'ltr_4868c3b754655f90',
    template_id: 'tmpl_4aa14648113e45b',
    template_version_id: 'vrsn_534e339882d2282',
    color: false,
    double_sided: true,
    address_placement: 'top_first_page',
    extra_service: null,
    tracking_number: null,
    cards: null,
    buckslips: null,
    return_envelope: false,
    perforated_page: null,
    custom_envelope: null,
    size: 'us_letter',
    fsc: false,
  },
});
