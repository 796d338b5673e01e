// Creatives: what a campaign mails to each recipient, as the vendor has them: the kind of piece, its
// sender, its artwork at the top level and the kind's own options (size, color, mail_type, ...) in
// `details`. The engine checks a creative as a create of that kind (the kind's own create schema and
// rules) with the recipient left to each run, so a creative that is accepted makes valid pieces.
import { Type } from '@sinclair/typebox';
import { filter, listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { description, id, metadata, nullable } from './fields';
import { idPatternFor } from './paths';
import { addressRef, artwork } from './mailpieces/fields';

/** The kinds a creative may be, and the mailpiece resource each is created as. */
export const CREATIVE_KINDS = { postcard: 'postcards', letter: 'letters', self_mailer: 'self_mailers' } as const;
export type CreativeKind = keyof typeof CREATIVE_KINDS;

const resourceType = () =>
  Type.Union([Type.Literal('postcard'), Type.Literal('letter'), Type.Literal('self_mailer')], {
    description: 'The kind of piece: postcard, letter or self_mailer.',
    examples: ['postcard'],
  });

/** The artwork fields of every kind; which a kind requires is checked against that kind's schema. */
export const CREATIVE_ARTWORK = ['front', 'back', 'file', 'inside', 'outside'] as const;

const SHOWN_SIDE = 'The artwork as given (HTML, template id or URL); null when absent or uploaded as a file.';

const details = () =>
  Type.Record(Type.String({ maxLength: 40 }), Type.Unknown(), {
    maxProperties: 30,
    description:
      "The kind's own create fields (size, mail_type, color, double_sided, merge_variables, ...), checked as in a direct create of that kind.",
    examples: [{ size: '6x9', mail_type: 'usps_first_class' }],
  });

export const creativeOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/creatives',
    summary: 'Create a creative',
    body: Type.Object({
      resource_type: resourceType(),
      campaign_id: Type.String({
        pattern: idPatternFor('cmp'),
        errorMessage: 'must be a campaign id (cmp_...)',
        description: 'The campaign (cmp_...) the creative belongs to.',
        examples: ['cmp_e05ee3a7c4b3a8b1'],
      }),
      from: Type.Optional(addressRef('The sender')),
      description: Type.Optional(description()),
      metadata: Type.Optional(metadata()),
      // an uploaded side is stored once, and every piece of every run names that one file
      front: Type.Optional(artwork('Front artwork (postcards)')),
      back: Type.Optional(artwork('Back artwork (postcards)')),
      file: Type.Optional(artwork('The letter')),
      inside: Type.Optional(artwork('Inside artwork (self mailers)')),
      outside: Type.Optional(artwork('Outside artwork (self mailers)')),
      // required, as the vendor has it: `{}` for a kind's defaults
      details: details(),
    }),
    response: 'object',
    idempotent: true,
    mails: 'later',
    files: [...CREATIVE_ARTWORK],
  }),
  list: listOperation('/v1/creatives', 'List creatives', {
    filters: [
      filter('campaign_id', 'campaign_id', 'equals', Type.String({ description: 'Only creatives of this campaign.' })),
    ],
    sorts: ['date_created'],
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/creatives/{id}',
    summary: 'Retrieve a creative',
    response: 'object',
  }),
  update: operation({
    name: 'update',
    method: 'PATCH',
    path: '/v1/creatives/{id}',
    summary: 'Update a creative',
    body: Type.Object({
      from: Type.Optional(addressRef('The sender')),
      description: Type.Optional(description()),
      metadata: Type.Optional(metadata()),
    }),
    response: 'object',
    mails: 'later',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/creatives/{id}',
    summary: 'Delete a creative',
    response: 'deleted',
  }),
};

export const creatives = defineResource({
  name: 'creatives',
  title: 'Creative',
  object: 'creative',
  idPrefix: 'crv',
  description: 'What a campaign mails: a postcard, letter or self mailer without its recipient.',
  fields: {
    resource_type: resourceType(),
    campaign_id: id('cmp', 'campaign'),
    // left out when there is none: the vendor types it a plain string, not nullable
    from: Type.Optional(
      Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())], {
        description: 'The sender: an address id; left out when the creative has none.',
      }),
    ),
    description: nullable(Type.String()),
    metadata: metadata(),
    // as a piece shows its artwork: what was given by reference, nothing of an uploaded file's bytes
    front: nullable(Type.String(), { description: SHOWN_SIDE }),
    back: nullable(Type.String(), { description: SHOWN_SIDE }),
    file: nullable(Type.String(), { description: SHOWN_SIDE }),
    inside: nullable(Type.String(), { description: SHOWN_SIDE }),
    outside: nullable(Type.String(), { description: SHOWN_SIDE }),
    details: details(),
    // the vendor's preview and campaign lists: this engine makes no previews, and a creative has one campaign_id
    template_preview_urls: Type.Record(Type.String(), Type.String(), {
      description: 'Always empty: no previews are made.',
    }),
    template_previews: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'Always empty: no previews are made.',
    }),
    campaigns: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: 'Always empty: the campaign is campaign_id.',
    }),
  },
  operations: Object.values(creativeOperations),
  events: [],
  sample: {
    id: 'crv_7a1e2b9c0d3f4e5a',
    resource_type: 'postcard',
    campaign_id: 'cmp_e05ee3a7c4b3a8b1',
    from: 'adr_d3489cd64c791ab5',
    description: null,
    metadata: {},
    front: '<html><body><h1>Hello {{name}}</h1></body></html>',
    back: '<html><body>See you soon</body></html>',
    file: null,
    inside: null,
    outside: null,
    details: { size: '6x9' },
    template_preview_urls: {},
    template_previews: [],
    campaigns: [],
    deleted: false,
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'creative',
  },
});
