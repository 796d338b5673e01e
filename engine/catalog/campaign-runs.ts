// A campaign's runs: each send of a campaign, manual or scheduled, lives under it
// (`/v1/campaigns/{cmp_id}/runs`) and says what it did: the pieces it made, the recipients it skipped.
import { Type } from '@sinclair/typebox';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { dateTime, id, nullable } from './fields';

/** A status field of the given values (campaigns and their runs). */
export const status = (values: readonly string[], what: string) =>
  Type.Union(
    values.map((v) => Type.Literal(v)),
    { description: what, examples: [values[0]] },
  );

export const runOperations = {
  list: listOperation('/v1/campaigns/{cmp_id}/runs', "List a campaign's runs"),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/campaigns/{cmp_id}/runs/{id}',
    summary: 'Retrieve a campaign run',
    response: 'object',
  }),
};

export const RUN_STATUSES = ['running', 'completed', 'failed'] as const;

export const campaignRuns = defineResource({
  name: 'campaign_runs',
  title: 'Campaign run',
  object: 'campaign_run',
  idPrefix: 'run',
  description: 'One send of a campaign: when, to whom, the pieces it made and the recipients it skipped.',
  fields: {
    campaign_id: id('cmp', 'campaign'),
    trigger: Type.Union([Type.Literal('manual'), Type.Literal('schedule')], {
      description: 'manual (POST /send) or schedule (a cron tick).',
    }),
    scheduled_for: nullable(dateTime('The cron tick the run is for; null for a manual run.')),
    upload_id: nullable(
      Type.String({ description: "The campaign's upload whose rows the run sends to; null: the address book." }),
    ),
    status: status(RUN_STATUSES, 'running, completed, or failed (see failure_reason).'),
    recipients: Type.Integer({
      description: 'Addresses, or rows of the upload, in the audience (known once the run has read it).',
    }),
    pieces_created: Type.Integer({ description: 'Pieces created so far, one per recipient and creative.' }),
    skipped: Type.Array(
      Type.Object({
        address_id: nullable(Type.String({ description: 'The address; null for a row of an upload.' })),
        upload_id: Type.Optional(Type.String({ description: 'A row of an upload: the upload.' })),
        row_number: Type.Optional(
          Type.Integer({ description: 'A row of an upload: its row in the file (header: 1).' }),
        ),
        creative_id: Type.String(),
        reason: Type.String(),
        code: Type.Union([Type.Literal('duplicate'), Type.Literal('already_mailed'), Type.Literal('refused')], {
          description:
            'duplicate: the same person (name and standardized address) as an earlier recipient of the run; already_mailed: a person an earlier run of the campaign mailed; refused: the piece could not be made (see reason).',
        }),
      }),
      { description: 'Recipients no piece was made for, and why (the first 100).' },
    ),
    skipped_count: Type.Integer({ description: 'How many recipients were skipped in all.' }),
    failure_reason: nullable(Type.String()),
    date_completed: nullable(dateTime('When the run ended.')),
  },
  operations: Object.values(runOperations),
  events: [],
  sample: {
    id: 'run_5b1c0e5a9f3d2c7e',
    campaign_id: 'cmp_e05ee3a7c4b3a8b1',
    trigger: 'manual',
    scheduled_for: null,
    upload_id: null,
    status: 'completed',
    recipients: 50,
    pieces_created: 49,
    skipped: [
      {
        address_id: 'adr_d3489cd64c791ab5',
        creative_id: 'crv_7a1e2b9c0d3f4e5a',
        reason: 'duplicate of adr_0b9d2c41a7e35f68: the same person and address',
        code: 'duplicate',
      },
    ],
    skipped_count: 1,
    failure_reason: null,
    date_completed: '2026-11-20T18:40:02.456Z',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:40:02.456Z',
    object: 'campaign_run',
  },
});
