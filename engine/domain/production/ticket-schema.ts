// The job ticket's shape, declared once: the TypeScript type of a ticket follows from it, and
// `npm run build:ticket-schema` writes it as JSON Schema to docs/job-ticket.schema.json, the file a
// print room validates tickets against (a test holds the file to this declaration).
import { Type, type Static, type TSchema } from '@sinclair/typebox';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (description: string) => Type.String({ description });

const page = Type.Object(
  {
    side: text('the artwork side (`front`, `back`, `inside`, `outside`, `file`, ...)'),
    width_in: Type.Number({ description: 'page width in inches, bleed included' }),
    height_in: Type.Number({ description: 'page height in inches, bleed included' }),
  },
  { additionalProperties: false },
);

const insert = Type.Object(
  {
    type: Type.Union([Type.Literal('card'), Type.Literal('buckslip')]),
    id: text('the card (`card_…`) or buckslip (`bck_…`) to insert'),
    size: text('its size as the vendor names it (`2.125x3.375`, `8.75x3.75`, ...)'),
    description: nullable(text('what the account called it')),
  },
  { additionalProperties: false },
);

/** A postal address as the piece carries it (the address book's object). */
const address = Type.Object(
  { address_line1: Type.String() },
  { additionalProperties: true, description: 'an address object as the API answers it' },
);

/** What the envelope of a letter or check prints in its postage corner: the permit imprint indicia. */
const indicia = Type.Object(
  {
    mail_class: Type.Union([Type.Literal('usps_first_class'), Type.Literal('usps_standard')], {
      description: 'the mail class the indicia names (checks always First-Class)',
    }),
    international: Type.Boolean({ description: 'mailed abroad (First-Class Mail International)' }),
    permit_number: text("the operator's permit number (PERMIT NO.)"),
    permit_city: text('city of the post office that holds the permit'),
    permit_state: text('two-letter state of that post office'),
    lines: Type.Array(Type.String(), {
      description: 'the indicia as printed on postcards, line by line (class, U.S. POSTAGE PAID, office, permit)',
    }),
  },
  {
    additionalProperties: false,
    description:
      'letters and checks: the postage indicia their envelope prints (the piece itself has none); null for postcards, self mailers and snap packs, which print it',
  },
);

export const JOB_TICKET = Type.Object(
  {
    ticket: Type.String({
      pattern: '^pjob_[0-9a-f]{16}$',
      description: "the print job's id, as the piece's production.id",
    }),
    piece_id: text('the piece (`psc_…`, `ltr_…`, `sfm_…`, `chk_…`, `ord_…`)'),
    kind: Type.Union(
      ['postcards', 'letters', 'self_mailers', 'checks', 'snap_packs'].map((k) => Type.Literal(k)),
      { description: 'the resource the piece belongs to' },
    ),
    object: text('its object name (`postcard`, `letter`, ...)'),
    product: Type.Object(
      { size: Type.String(), pages: Type.Array(page, { description: 'each artwork side, in order' }) },
      { additionalProperties: false, description: "the product's size and each artwork side's page size" },
    ),
    size: nullable(text("the piece's size field")),
    pdf: text('the PDF beside the ticket, in the same folder'),
    pages: Type.Integer({ minimum: 1, description: 'pages in the PDF (inserted cover and address pages included)' }),
    sheets: Type.Integer({
      minimum: 1,
      description: 'sheets the PDF prints on: one per page simplex, one per two pages duplex',
    }),
    sides: Type.Union([Type.Literal('simplex'), Type.Literal('duplex')], {
      description:
        "simplex: each PDF page on a sheet of its own; duplex: pages 1 and 2 on a sheet's two sides, and so on",
    }),
    color: Type.Boolean({
      description:
        'print in colour: the piece asked for it (letters, snap packs), or always (postcards, self mailers); checks are black',
    }),
    double_sided: nullable(Type.Boolean({ description: "letters' own double_sided field, as given" })),
    address_placement: nullable(
      text(
        'letters: where the address is (top_first_page, insert_blank_page, bottom_first_page_center, bottom_first_page)',
      ),
    ),
    perforated_page: nullable(
      Type.Integer({
        minimum: 1,
        description: 'the PDF page (from 1, inserted pages counted) to perforate for the return envelope slip',
      }),
    ),
    return_envelope: nullable(Type.Boolean({ description: 'letters: include a return envelope' })),
    custom_envelope: nullable(text('letters: the custom envelope (`env_…`) to mail it in, else the standard one')),
    inserts: Type.Array(insert, { description: 'cards and buckslips to insert with the piece, in order' }),
    mail_type: Type.Union([Type.Literal('usps_first_class'), Type.Literal('usps_standard')], {
      description: 'the mail class',
    }),
    extra_service: nullable(
      Type.Union([Type.Literal('certified'), Type.Literal('certified_return_receipt'), Type.Literal('registered')], {
        description: 'letters: the USPS extra service',
      }),
    ),
    to: address,
    from: nullable(address),
    imb: Type.Object(
      {
        tracking_code: Type.String({ pattern: '^[0-9]{20}$' }),
        routing_code: Type.String({ pattern: '^([0-9]{5}|[0-9]{9}|[0-9]{11})?$' }),
      },
      {
        additionalProperties: false,
        description: "the Intelligent Mail barcode's codes; routing '' (no barcode) abroad",
      },
    ),
    tracking_number: nullable(text('certified and registered letters: the USPS tracking number, as printed')),
    indicia: nullable(indicia),
    send_date: text("the piece's send_date (ISO 8601)"),
    date_produced: text('when the piece went to production (ISO 8601, UTC): its production.date_created'),
    account_id: text('the account the piece belongs to'),
  },
  { additionalProperties: false, title: 'printpost job ticket' },
);

export type JobTicket = Static<typeof JOB_TICKET>;

/** The JSON Schema document of a ticket, as docs/job-ticket.schema.json holds it. */
export const jobTicketSchemaDocument = (): Record<string, unknown> => ({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  ...(JSON.parse(JSON.stringify(JOB_TICKET)) as Record<string, unknown>),
});
