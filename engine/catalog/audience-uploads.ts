// Audience uploads, in the vendor's shape (camelCase fields, `upl_` ids): a CSV file of recipients for
// a campaign, with the columns that hold each recipient's address, merge variables and metadata. Each
// row becomes a piece of every run of the campaign; a row report and exports say which rows could not.
import { Type } from '@sinclair/typebox';
import { listOperation } from './list-filters';
import { defineResource } from './resource';
import { operation } from './operation';
import { dateTime, id, nullable } from './fields';
import { idPatternFor } from './paths';
import { upload } from './uploads';

/** A CSV column header: what a mapping names. */
const column = (what: string) =>
  nullable(Type.String({ minLength: 1, maxLength: 255 }), {
    description: `The column of the file that holds ${what}.`,
  });

/** The address fields every row needs (the vendor's required address columns). */
export const REQUIRED_ADDRESS_FIELDS = [
  'name',
  'address_line1',
  'address_city',
  'address_state',
  'address_zip',
] as const;
/** The address fields a row may have (the vendor's optional address columns). */
export const OPTIONAL_ADDRESS_FIELDS = ['address_line2', 'company', 'address_country'] as const;

const requiredMapping = () =>
  Type.Object(Object.fromEntries(REQUIRED_ADDRESS_FIELDS.map((f) => [f, Type.Optional(column(`\`${f}\``))])), {
    additionalProperties: false,
    description:
      'The columns that hold the address of each recipient: name, address_line1, address_city, address_state, address_zip (a row of a US address needs state and ZIP; name may be left out where company is mapped).',
    examples: [
      {
        name: 'recipient_name',
        address_line1: 'primary_line',
        address_city: 'city',
        address_state: 'state',
        address_zip: 'zip_code',
      },
    ],
  });

const optionalMapping = () =>
  Type.Object(Object.fromEntries(OPTIONAL_ADDRESS_FIELDS.map((f) => [f, Type.Optional(column(`\`${f}\``))])), {
    additionalProperties: false,
    description: 'The columns that hold the optional address fields: address_line2, company, address_country.',
    examples: [{ address_line2: 'secondary_line', company: 'company', address_country: 'country' }],
  });

const mergeMapping = () =>
  nullable(
    Type.Record(Type.String({ pattern: '^[^"\\\\]{1,100}$' }), Type.String({ minLength: 1, maxLength: 255 }), {
      maxProperties: 50,
      description: 'Merge variable name -> the column that holds its value for each recipient.',
      examples: [{ name: 'recipient_name', gift_code: 'code' }],
    }),
  );

const metadataColumns = () =>
  Type.Object(
    {
      columns: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), {
        maxItems: 20,
        uniqueItems: true,
        default: [],
        description: "The columns whose values become each piece's metadata (the column header is the key).",
      }),
    },
    { additionalProperties: false, examples: [{ columns: ['recipient_name'] }] },
  );

const mappings = () => ({
  requiredAddressColumnMapping: Type.Optional(requiredMapping()),
  optionalAddressColumnMapping: Type.Optional(optionalMapping()),
  metadata: Type.Optional(metadataColumns()),
  mergeVariableColumnMapping: Type.Optional(mergeMapping()),
});

export const UPLOAD_STATES = ['Draft', 'Scheduled', 'Cancelled'] as const;

export const REPORT_STATUSES = ['Validated', 'Failed', 'Processing'] as const;

const reportLine = Type.Object({
  rowNumber: Type.Integer({ description: 'The row of the file (the header is row 1).' }),
  lineNumber: Type.Integer({ description: 'The line of the file the row starts on (quoted fields may span lines).' }),
  status: Type.Union(
    REPORT_STATUSES.map((s) => Type.Literal(s)),
    { description: 'Validated, Failed (see errorMessage) or Processing (its run has not reached it yet).' },
  ),
  errorMessage: nullable(Type.String({ description: 'Why the row makes no piece.' })),
  mailpieceId: nullable(Type.String({ description: 'The piece the latest run made from the row.' })),
  originalData: Type.Record(Type.String(), Type.String(), { description: 'Column header -> value, as in the file.' }),
});

export const uploadOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/uploads',
    summary: 'Create an upload',
    body: Type.Object({
      campaignId: Type.String({
        pattern: idPatternFor('cmp'),
        errorMessage: 'must be a campaign id (cmp_...)',
        description: 'The campaign (cmp_...) whose audience the file is; a campaign has at most one upload.',
        examples: ['cmp_e05ee3a7c4b3a8b1'],
      }),
      ...mappings(),
    }),
    response: 'object',
    mails: 'later',
  }),
  list: {
    ...listOperation('/v1/uploads', 'List uploads'),
    query: Type.Object({
      ...listOperation('/v1/uploads', '').query!.properties,
      campaignId: Type.Optional(
        Type.String({ pattern: idPatternFor('cmp'), description: 'Only the upload of this campaign.' }),
      ),
    }),
  },
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/uploads/{id}',
    summary: 'Retrieve an upload',
    response: 'object',
  }),
  update: operation({
    name: 'update',
    method: 'PATCH',
    path: '/v1/uploads/{id}',
    summary: 'Update the column mappings of an upload',
    body: Type.Object({
      originalFilename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
      ...mappings(),
    }),
    response: 'object',
    mails: 'later',
  }),
  delete: operation({
    name: 'delete',
    method: 'DELETE',
    path: '/v1/uploads/{id}',
    summary: 'Delete an upload',
    response: 'deleted',
  }),
  file: operation({
    name: 'file',
    method: 'POST',
    path: '/v1/uploads/{upl_id}/file',
    summary: 'Upload the CSV file of an upload',
    body: Type.Object({
      file: upload({ description: 'The audience as CSV (UTF-8, a header row first), sent as multipart.' }),
    }),
    files: ['file'],
    response: 'object',
    mails: 'later',
    responseSchema: Type.Object({
      message: Type.Literal('File uploaded successfully'),
      filename: Type.String(),
    }),
  }),
  report: operation({
    name: 'report',
    method: 'GET',
    path: '/v1/uploads/{upl_id}/report',
    summary: "Retrieve an upload's line item report",
    query: Type.Object({
      status: Type.Optional(
        Type.Union(
          REPORT_STATUSES.map((s) => Type.Literal(s)),
          { description: 'Only rows of this status.' },
        ),
      ),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100, description: 'Rows, 1 to 100.' })),
      offset: Type.Optional(
        Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0, description: 'Rows to pass over first.' }),
      ),
    }),
    response: 'object',
    responseSchema: Type.Object({
      data: Type.Array(reportLine),
      count: Type.Integer(),
      offset: Type.Integer(),
      total_count: Type.Integer(),
      next_url: nullable(Type.String()),
      prev_url: nullable(Type.String()),
    }),
  }),
};

export const uploads = defineResource({
  name: 'uploads',
  title: 'Upload',
  object: 'upload',
  idPrefix: 'upl',
  description:
    "A campaign's audience as a CSV file: each valid row becomes a piece of every run, its address, merge variables and metadata read from the mapped columns.",
  fields: {
    accountId: Type.String({ description: 'The account of the upload.' }),
    campaignId: id('cmp', 'campaign'),
    mode: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    requiredAddressColumnMapping: requiredMapping(),
    optionalAddressColumnMapping: optionalMapping(),
    metadata: metadataColumns(),
    mergeVariableColumnMapping: mergeMapping(),
    state: Type.Union(
      UPLOAD_STATES.map((s) => Type.Literal(s)),
      { description: 'Draft until its file and address mapping are in, then Scheduled: a run sends to its rows.' },
    ),
    originalFilename: Type.Optional(Type.String({ description: 'The name the file was sent with (once it was).' })),
    failuresUrl: Type.Optional(
      Type.String({ description: 'Never set: failures are exported (POST /v1/uploads/{upl_id}/exports).' }),
    ),
    totalMailpieces: Type.Integer({ description: 'Rows of the file (the header aside).' }),
    failedMailpieces: Type.Integer({ description: 'Rows that cannot make a piece (bad data or duplicates).' }),
    validatedMailpieces: Type.Integer({ description: 'Rows that passed the checks made on upload.' }),
    bytesProcessed: Type.Integer({ description: 'Bytes of the file.' }),
    columns: Type.Array(Type.String(), { description: "The file's header, in order (empty before the file)." }),
    dateCreated: dateTime('When the upload was created.'),
    dateModified: dateTime('When the upload last changed.'),
  },
  operations: Object.values(uploadOperations),
  events: [],
  sample: {
    id: 'upl_71be866e430b11e9',
    accountId: 'acct_5c1e2b',
    campaignId: 'cmp_1933ad629bae1408',
    mode: 'test',
    requiredAddressColumnMapping: {
      name: 'recipient_name',
      address_line1: 'primary_line',
      address_city: 'city',
      address_state: 'state',
      address_zip: 'zip_code',
    },
    optionalAddressColumnMapping: { address_line2: 'secondary_line', company: null, address_country: null },
    metadata: { columns: ['recipient_name'] },
    mergeVariableColumnMapping: { gift_code: 'code' },
    state: 'Scheduled',
    originalFilename: 'my_audience.csv',
    totalMailpieces: 100,
    failedMailpieces: 5,
    validatedMailpieces: 95,
    bytesProcessed: 17268,
    columns: ['recipient_name', 'primary_line', 'secondary_line', 'city', 'state', 'zip_code', 'code'],
    dateCreated: '2026-11-20T18:39:45.123Z',
    dateModified: '2026-11-20T18:39:45.123Z',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'upload',
  },
});

export const EXPORT_TYPES = ['all', 'failures', 'successes'] as const;

export const exportOperations = {
  create: operation({
    name: 'create',
    method: 'POST',
    path: '/v1/uploads/{upl_id}/exports',
    summary: "Export an upload's rows as CSV",
    body: Type.Object({
      type: Type.Union(
        EXPORT_TYPES.map((t) => Type.Literal(t)),
        { description: 'all rows, the failures (with their reason) or the successes (with their piece).' },
      ),
    }),
    response: 'object',
    responseSchema: Type.Object({
      message: Type.Literal('Export is processing'),
      // shaped as the vendor's `ex_id`, so a client checking the create's answer against its schema takes it
      exportId: Type.String({
        pattern: idPatternFor('ex'),
        description: 'The export (ex_...): GET /v1/uploads/{upl_id}/exports/{id} reads it.',
        examples: ['ex_2dafd758ed3da9c43'],
      }),
    }),
  }),
  retrieve: operation({
    name: 'retrieve',
    method: 'GET',
    path: '/v1/uploads/{upl_id}/exports/{id}',
    summary: 'Retrieve an export',
    response: 'object',
  }),
};

export const uploadExports = defineResource({
  name: 'upload_exports',
  title: 'Export',
  object: 'export',
  idPrefix: 'ex',
  description: 'The rows of an upload as a CSV file, each with its row number, status, reason and piece.',
  fields: {
    uploadId: id('upl', 'upload'),
    type: Type.Union(EXPORT_TYPES.map((t) => Type.Literal(t))),
    state: Type.Union([Type.Literal('in_progress'), Type.Literal('failed'), Type.Literal('succeeded')]),
    s3Url: nullable(Type.String({ description: 'A signed link to the CSV file (valid 30 days).' })),
    dateCreated: dateTime('When the export was created.'),
    dateModified: dateTime('When the export last changed.'),
  },
  operations: Object.values(exportOperations),
  events: [],
  sample: {
    id: 'ex_6a94fe68fd151e0f8',
    uploadId: 'upl_71be866e430b11e9',
    type: 'failures',
    state: 'succeeded',
    s3Url: 'http://127.0.0.1:8000/assets/exports/ex_6a94fe68fd151e0f8.csv?expires=1767225600&signature=0f3c',
    deleted: false,
    dateCreated: '2026-11-20T18:39:45.123Z',
    dateModified: '2026-11-20T18:39:45.123Z',
    date_created: '2026-11-20T18:39:45.123Z',
    date_modified: '2026-11-20T18:39:45.123Z',
    object: 'export',
  },
});
