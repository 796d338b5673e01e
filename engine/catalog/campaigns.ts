// Campaigns (the vendor's fields, plus our `schedule`, `status` and `audience`) and their runs. A
// campaign sends its creatives (./creatives.ts) to an audience; each send, manual or scheduled, is a
// run that lives under the campaign (`/v1/campaigns/{cmp_id}/runs`) and says what it did.
import { Type } from '@sinclair/typebox';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { dateTime, deletedResponse, metadata, nullable } from './fields';
import { idPatternFor } from './paths';
import { creatives } from './creatives';
import { campaignRuns, status } from './campaign-runs';

const name = () =>
  Type.String({ minLength: 1, maxLength: 255, description: 'Name of the campaign.', examples: ['Winter mailer'] });

const campaignDescription = () =>
  nullable(Type.String({ maxLength: 255 }), {
    description: 'An internal description of the campaign, at most 255 characters.',
    examples: ['Monthly new-customer welcome'],
  });

const scheduleType = () =>
  Type.Literal('immediate', { description: 'How the campaign is scheduled: `immediate`.', examples: ['immediate'] });

const useType = () =>
  nullable(Type.Union([Type.Literal('marketing'), Type.Literal('operational')]), {
    description: 'marketing or operational for every piece; null only when the account has a default use_type.',
    examples: ['marketing'],
  });

const optionalDate = (what: string) => nullable(dateTime(what));

const printSpeed = () =>
  nullable(Type.Literal('core'), {
    default: 'core',
    description: 'The mail speed: `core`, 2 production business days (the only one).',
    examples: ['core'],
  });

const recurring = () =>
  Type.Boolean({
    default: false,
    description:
      'Whether the campaign is sent more than once (each run mails only people it has not mailed). A campaign with a schedule is; one without is sent once unless this is true (sent by a workflow, say).',
    examples: [true],
  });

const remailAfterDays = () =>
  nullable(Type.Integer({ minimum: 1, maximum: 3_650 }), {
    description:
      'Mail a person this campaign mailed already again once this many days have passed; null (the default): never mail a person twice.',
    examples: [90],
  });

const cancelWindow = () =>
  nullable(Type.Integer({ minimum: 0, maximum: 43_200 }), {
    description: 'A window, in minutes, within which the pieces of the campaign can be cancelled.',
    examples: [60],
  });

const billingGroup = () =>
  nullable(Type.String({ pattern: idPatternFor('bg'), errorMessage: 'must be a billing group id (bg_...)' }), {
    description: 'A billing group (bg_...) every piece of the campaign is billed to.',
    examples: ['bg_4bb02b527a72667d0'],
  });

/** Five cron fields (minute hour day month weekday), or six with seconds first; checked further by the engine. */
export const schedule = () =>
  nullable(
    Type.Object(
      {
        cron: Type.String({
          minLength: 9,
          maxLength: 100,
          pattern: '^\\S+(\\s+\\S+){4,5}$',
          errorMessage: 'must be a cron expression of five (or six) fields',
          description: 'When to run, as a cron expression: minute hour day-of-month month day-of-week.',
          examples: ['0 9 * * 1'],
        }),
        time_zone: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 64,
            default: 'UTC',
            description: 'The IANA time zone the cron expression is read in (default UTC).',
            examples: ['America/New_York'],
          }),
        ),
      },
      { additionalProperties: false },
    ),
    { description: 'A recurring schedule, or null for a campaign sent only on demand.' },
  );

/** Who a run sends to: address ids, or the address book selected by metadata (and, optionally, novelty). */
export const audience = () =>
  nullable(
    Type.Object(
      {
        address_ids: Type.Optional(
          Type.Array(Type.String({ pattern: idPatternFor('adr'), errorMessage: 'must be an address id (adr_...)' }), {
            minItems: 1,
            maxItems: 10_000,
            uniqueItems: true,
            description: 'These addresses (adr_...); when given, the address book is not searched.',
          }),
        ),
        metadata: Type.Optional(metadata()),
        created_since_last_run: Type.Optional(
          Type.Boolean({
            default: false,
            description: 'Only addresses created after the start of the previous run (all of them on the first).',
          }),
        ),
      },
      {
        additionalProperties: false,
        description:
          'The recipients of each run: `address_ids`, or every address of the book whose metadata has all of `metadata`; null: the whole address book.',
        examples: [{ metadata: { segment: 'new' }, created_since_last_run: true }],
      },
    ),
  );

/** `failed`: the campaign's last run failed (a run's `failure_reason` says why); a later run that completes makes it `completed`. */
export const CAMPAIGN_STATUSES = [
  'draft',
  'scheduled',
  'running',
  'paused',
  'completed',
  'failed',
  'cancelled',
] as const;

const requiresApproval = () =>
  Type.Boolean({
    description:
      "Our extension: no piece of the campaign goes to production until it is approved (POST /v1/campaigns/{id}/approve). Default: off in test mode; in live mode the account's `live_campaigns_require_approval` setting.",
    examples: [true],
  });

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

/** Who decided a campaign's approval and when (our extension; null until someone decides). */
export const approval = () =>
  nullable(
    Type.Object({
      status: Type.Union(
        APPROVAL_STATUSES.map((s) => Type.Literal(s)),
        { description: 'pending (nobody decided yet), approved or rejected.' },
      ),
      decided_by: nullable(Type.String({ description: 'Who approved or rejected it, as they were named.' })),
      decided_at: nullable(dateTime('When it was approved or rejected.')),
      reason: nullable(
        Type.String({
          description:
            'Why it was rejected, or a note on the approval; while pending again, what changed since the last decision.',
        }),
      ),
    }),
    {
      description:
        'Our extension: the approval of a campaign that requires one; its pieces go to production only once `status` is approved, and a rejection cancels those not yet there. A change of what an approved or rejected campaign mails (its creatives, audience, schedule, send date, ...; not its name, description or metadata) puts it back to pending.',
    },
  );

const writable = () => ({
  requires_approval: Type.Optional(requiresApproval()),
  description: Type.Optional(campaignDescription()),
  target_delivery_date: Type.Optional(optionalDate('A targeted delivery date for the pieces of the campaign.')),
  send_date: Type.Optional(optionalDate('When to send the campaign.')),
  cancel_window_campaign_minutes: Type.Optional(cancelWindow()),
  print_speed: Type.Optional(printSpeed()),
  recurring: Type.Optional(recurring()),
  remail_after_days: Type.Optional(remailAfterDays()),
  metadata: Type.Optional(metadata()),
  auto_cancel_if_ncoa: Type.Optional(
    Type.Boolean({ description: 'Cancel a piece whose address changed through NCOA (recorded, not acted on).' }),
  ),
  billing_group_id: Type.Optional(billingGroup()),
  schedule: Type.Optional(schedule()),
  audience: Type.Optional(audience()),
});

export const campaignOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/campaigns',
    summary: 'Create a campaign',
    // use_type left out or null takes the account's default_use_type, as a piece's does
    body: Type.Object({
      name: name(),
      schedule_type: scheduleType(),
      use_type: Type.Optional(useType()),
      ...writable(),
    }),
    response: 'object',
    idempotent: true,
    mails: 'later',
  }),
  list: listOperation('/v1/campaigns', 'List campaigns', { sorts: ['date_created'] }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/campaigns/{id}',
    summary: 'Retrieve a campaign',
    response: 'object',
  }),
  update: operation({
    name: 'update',
    method: 'PATCH',
    path: '/v1/campaigns/{id}',
    summary: 'Update, pause or resume a campaign',
    body: Type.Object({
      name: Type.Optional(name()),
      schedule_type: Type.Optional(scheduleType()),
      use_type: Type.Optional(useType()),
      status: Type.Optional(
        status(['draft', 'scheduled', 'paused', 'cancelled'], 'paused stops its schedule, scheduled resumes it.'),
      ),
      ...writable(),
    }),
    response: 'object',
    mails: 'later',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/campaigns/{id}',
    summary: 'Delete a campaign and cancel its unproduced pieces',
    response: 'deleted',
    responseSchema: Type.Object(
      {
        ...deletedResponse('cmp').properties,
        pieces_cancelled: Type.Integer({
          description:
            'Our extension: pieces of the campaign cancelled by the delete (each with its `<kind>.deleted` event); none is live once it answers.',
        }),
        pieces_in_production: Type.Integer({
          description:
            'Our extension: pieces already in production, which cannot be cancelled (as a cancel of one past its window is refused).',
        }),
      },
      { examples: [{ id: 'cmp_e05ee3a7c4b3a8b1', deleted: true, pieces_cancelled: 49, pieces_in_production: 1 }] },
    ),
  }),
  send: operation({
    name: 'send',
    method: 'POST',
    path: '/v1/campaigns/{id}/send',
    summary: 'Send a campaign now: starts a run',
    response: 'object',
    mails: 'now',
    responseSchema: Type.Object(campaignRuns.schema.properties, {
      examples: [campaignRuns.sample],
    }),
    idempotent: true,
  }),
};

export const campaigns = defineResource({
  name: 'campaigns',
  title: 'Campaign',
  object: 'campaign',
  idPrefix: 'cmp',
  description: 'Mail sent from creatives to an audience, on demand or on a cron schedule; each send is a run.',
  fields: {
    name: Type.String(),
    description: nullable(Type.String()),
    schedule_type: scheduleType(),
    use_type: useType(),
    target_delivery_date: nullable(Type.String()),
    send_date: nullable(Type.String()),
    cancel_window_campaign_minutes: nullable(Type.Integer()),
    print_speed: printSpeed(),
    recurring: recurring(),
    remail_after_days: remailAfterDays(),
    metadata: metadata(),
    auto_cancel_if_ncoa: Type.Boolean({ default: false }),
    billing_group_id: nullable(Type.String()),
    schedule: schedule(),
    audience: audience(),
    is_draft: Type.Boolean({ description: 'Whether the campaign is still a draft (status draft).' }),
    next_run_at: nullable(
      dateTime('When the schedule next starts a run; null without a schedule, or while paused or cancelled.'),
    ),
    creatives: Type.Array(creatives.schema, { description: 'The creatives of the campaign, oldest first.' }),
    uploads: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      maxItems: 1,
      description:
        "The campaign's upload (POST /v1/uploads), if it has one: its rows are then the audience of every run, in place of `audience`.",
    }),
    status: Type.Union(
      CAMPAIGN_STATUSES.map((s) => Type.Literal(s)),
      {
        default: 'draft',
        description:
          "draft, scheduled, running, paused, completed, failed (its last run failed: see the run's failure_reason; a later completed run makes it completed) or cancelled.",
      },
    ),
    requires_approval: Type.Optional(requiresApproval()),
    approval: Type.Optional(approval()),
    agent_driven: Type.Optional(
      Type.Boolean({
        description:
          'Our extension: an AI agent created, changed, filled or sent this campaign, so each of its runs (sent by anyone, or a scheduled tick) is held to the agent limits: live mail only with agents_send_live, its audience counted against agent_pieces_per_day before it starts, send dates past the cancellation window.',
      }),
    ),
  },
  operations: Object.values(campaignOperations),
  events: [
    'campaign.created',
    'campaign.run_started',
    'campaign.run_completed',
    'campaign.run_failed',
    'campaign.approved',
    'campaign.rejected',
  ],
  sample: {
    id: 'cmp_e05ee3a7c4b3a8b1',
    name: 'Winter mailer',
    description: null,
    schedule_type: 'immediate',
    use_type: 'marketing',
    target_delivery_date: null,
    send_date: null,
    cancel_window_campaign_minutes: null,
    print_speed: 'core',
    recurring: true,
    remail_after_days: null,
    metadata: {},
    auto_cancel_if_ncoa: false,
    billing_group_id: null,
    schedule: { cron: '0 9 * * 1', time_zone: 'America/New_York' },
    audience: { metadata: { segment: 'new' }, created_since_last_run: true },
    is_draft: false,
    next_run_at: '2026-11-23T14:00:00.000Z',
    creatives: [creatives.sample],
    uploads: [],
    status: 'scheduled',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'campaign',
  },
});
