// Field types shared by several resources, with the spec's limits in the schema itself.
import { FormatRegistry, Type, type TSchema, type SchemaOptions } from '@sinclair/typebox';
import { idPatternFor } from './paths';

/**
 * Marks a string schema as markup a designer writes (HTML artwork, template HTML), where direction
 * controls may legitimately sit; every other text refuses them (engine/domain/validation/text.ts). A
 * symbol, so the mark stays out of the OpenAPI document and the packs.
 */
export const MARKUP: unique symbol = Symbol('markup');
export const markup = <T extends TSchema>(schema: T): T => Object.assign(schema, { [MARKUP]: true });

export const nullable = <T extends TSchema>(schema: T, options: SchemaOptions = {}) =>
  Type.Union([schema, Type.Null()], {
    ...options,
    description: options.description ?? schema.description,
    examples: options.examples ?? schema.examples,
  });

/** Neither a double quote nor a backslash (spec: metadata keys and values). */
const NO_QUOTE_OR_BACKSLASH = '^[^"\\\\]*$';

export const description = () =>
  nullable(Type.String({ maxLength: 255 }), {
    description: 'An internal description of the object, at most 255 characters.',
    examples: ['Harry - Office'],
  });

export const metadata = () =>
  Type.Record(
    Type.String({ pattern: '^[^"\\\\]{1,40}$' }),
    Type.String({
      maxLength: 500,
      pattern: NO_QUOTE_OR_BACKSLASH,
      errorMessage: 'must not contain double quotes or backslashes',
    }),
    {
      maxProperties: 20,
      additionalProperties: false,
      errorMessage: 'keys must be 1 to 40 characters without double quotes or backslashes',
      description:
        'Up to 20 key/value pairs for tagging and filtering; keys at most 40 characters, values at most 500, neither with a double quote or backslash.',
      examples: [{ customer_id: '8675309' }],
    },
  );

// The formats the catalog's schemas use, checkable wherever the schemas are compiled.
FormatRegistry.Set(
  'date-time',
  (v) => /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(v) && !Number.isNaN(Date.parse(v)),
);

FormatRegistry.Set('date', (v) => /^\d{4}-\d\d-\d\d$/.test(v) && !Number.isNaN(Date.parse(v)));

export const dateTime = (what: string) =>
  Type.String({ format: 'date-time', description: what, examples: ['2026-11-20T18:39:45.123Z'] });

export const objectName = <N extends string>(name: N) => Type.Literal(name, { description: `Value is \`${name}\`.` });

export const id = (prefix: string, what: string) =>
  Type.String({
    pattern: idPatternFor(prefix),
    description: `Unique identifier of the ${what}, prefixed with \`${prefix}_\`.`,
    examples: [`${prefix}_d3489cd64c791ab5`],
  });

/** The envelope fields every stored object carries. */
export const stamps = () => ({
  date_created: dateTime('When the object was created (UTC, ISO 8601).'),
  date_modified: dateTime('When the object was last modified (UTC, ISO 8601).'),
  deleted: Type.Optional(Type.Boolean({ description: 'Present and true only after a delete or cancel.' })),
});

export const deletedResponse = (prefix: string) =>
  Type.Object({ id: id(prefix, 'deleted object'), deleted: Type.Literal(true) });

/** A date filter: `{gt, gte, lt, lte}` with ISO 8601 dates or date-times. */
export const dateFilter = (what: string) =>
  Type.Object(
    {
      gt: Type.Optional(Type.String({ description: 'after' })),
      gte: Type.Optional(Type.String({ description: 'on or after' })),
      lt: Type.Optional(Type.String({ description: 'before' })),
      lte: Type.Optional(Type.String({ description: 'on or before' })),
    },
    {
      additionalProperties: false,
      description: `Filter by ${what}: an object of gt, gte, lt, lte with ISO 8601 dates or date-times.`,
      examples: [{ gt: '2026-01-01', lt: '2026-01-31T12:00:00Z' }],
    },
  );

/** Query parameters every list accepts (spec: Common list parameters). */
export const listQuery = () =>
  Type.Object({
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many results to return, 1 to 100.' }),
    ),
    before: Type.Optional(Type.String({ description: 'Cursor from previous_url: return the page before it.' })),
    after: Type.Optional(Type.String({ description: 'Cursor from next_url: return the page after it.' })),
    // A string array, not an enum: the vendor's clients may send values this engine does not know.
    include: Type.Optional(
      Type.Array(Type.String({ examples: ['total_count'] }), {
        description: '`total_count` adds the total number of matching objects to the list; other values are ignored.',
        examples: [['total_count']],
      }),
    ),
    date_created: Type.Optional(dateFilter('creation date')),
    metadata: Type.Optional(metadata()),
  });
