// What cards and buckslips (the vendor's letter inserts) share: artwork sides taken as the mailpieces
// take theirs, stock counts, and orders that print a run of them. Each kind declares its own sizes,
// order minimums and object (cards.ts, buckslips.ts).
import { Type, type TProperties } from '@sinclair/typebox';
import { dateTime, id, markup, nullable, objectName, stamps } from './fields';
import { upload } from './uploads';

export const ORDER_STATUSES = ['pending', 'printing', 'available', 'cancelled', 'depleted'] as const;

/** A side of an insert: HTML, a remote file URL, or an uploaded PDF, PNG or JPEG (no template ids). */
export const insertArtwork = (what: string) =>
  Type.Union(
    [
      markup(
        Type.String({
          minLength: 1,
          maxLength: 9_999,
          description: 'HTML (under 10,000 characters) or an https:// URL of a PDF, PNG or JPEG.',
        }),
      ),
      upload({ description: 'an uploaded PDF, PNG or JPEG file' }),
    ],
    {
      description: `${what}: an HTML string (under 10,000 characters), a remote file URL, or an uploaded PDF, PNG or JPEG, one page at the insert's size.`,
      examples: ['https://example.com/card-front.pdf'],
    },
  );

export const insertDescription = (what: string) =>
  nullable(Type.String({ maxLength: 255 }), { description: `Description of the ${what}.`, examples: ['Loyalty card'] });

/** The body of an insert's update (cards: POST, buckslips: PATCH), with the kind's smallest reorder. */
export const insertUpdate = (what: string, minimum: number) =>
  Type.Object({
    description: Type.Optional(insertDescription(what)),
    auto_reorder: Type.Optional(
      Type.Boolean({ description: `Order more ${what}s when the stock falls below threshold_amount.` }),
    ),
    reorder_quantity: Type.Optional(
      Type.Integer({
        minimum,
        maximum: 10_000_000,
        description: `How many to order each time (${minimum.toLocaleString('en-US')} to 10,000,000); needed with auto_reorder.`,
        examples: [minimum],
      }),
    ),
  });

/** An order's create body: how many to print, at least the kind's minimum. */
export const orderCreate = (what: string, minimum: number) =>
  Type.Object({
    quantity: Type.Integer({
      minimum,
      maximum: 10_000_000,
      description: `How many ${what}s to print (${minimum.toLocaleString('en-US')} to 10,000,000).`,
      examples: [minimum],
    }),
  });

/** An insert's orders are paged as the vendor pages them: `limit` and `offset`, newest first. */
export const orderListQuery = () =>
  Type.Object({
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many orders to return, 1 to 100.' }),
    ),
    offset: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0, description: 'Orders to pass over first.' }),
    ),
  });

const link = (what: string) => Type.String({ minLength: 1, description: what });

/** The fields both kinds of insert show: artwork links, reorder settings, stock, status. */
export const insertFields = (what: string, sizes: readonly string[], statuses: readonly string[]): TProperties => ({
  description: insertDescription(what),
  size: Type.Union(
    sizes.map((s) => Type.Literal(s)),
    { description: `The ${what}'s size in inches, height by width.` },
  ),
  url: link(`A signed link to the ${what}'s front artwork as stored.`),
  raw_url: link(`A signed link to the ${what}'s front artwork as stored.`),
  front_original_url: link('A signed link to the front artwork as given.'),
  back_original_url: link('A signed link to the back artwork as given (a blank page when none was given).'),
  thumbnails: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'Preview images; empty: the engine does not render proofs of inserts.',
  }),
  auto_reorder: Type.Boolean({ default: false, description: 'Whether more are ordered when stock runs low.' }),
  reorder_quantity: nullable(Type.Integer({ description: 'How many are ordered each time; null when not set.' })),
  threshold_amount: Type.Integer({ default: 0, description: 'The stock below which more are ordered.' }),
  available_quantity: Type.Integer({ description: 'Printed and ready to insert: the stock of available orders.' }),
  pending_quantity: Type.Integer({ description: 'Ordered and not yet printed.' }),
  status: Type.Union(
    statuses.map((s) => Type.Literal(s)),
    { description: 'processed: the artwork is stored and checked (the engine renders no proof).' },
  ),
});

/** An order of `what`s, living under its insert (`card_id`, `buckslip_id`). */
export const orderFields = (prefix: string, parentPrefix: string, parentField: string, what: string) => ({
  id: id(prefix, `${what} order`),
  [parentField]: id(parentPrefix, what),
  status: Type.Union(
    ORDER_STATUSES.map((s) => Type.Literal(s)),
    {
      description:
        'pending until the print room has printed the run (then available); the engine records orders, printing them is the print room’s.',
    },
  ),
  quantity_ordered: Type.Integer({ description: `How many ${what}s were ordered.` }),
  inventory: Type.Integer({ description: 'How many of this order are printed and left.' }),
  unit_price: Type.Number({ description: 'Price per piece; 0, as the engine bills nothing.' }),
  cancelled_reason: Type.Optional(Type.String({ description: 'Why the order was cancelled; absent otherwise.' })),
  availability_date: Type.Optional(dateTime('When the order became available; absent until then.')),
  expected_availability_date: Type.Optional(dateTime('When the order is expected to be printed; absent if unknown.')),
  ...stamps(),
});

export const orderObject = (prefix: string, parentPrefix: string, parentField: string, what: string, object: string) =>
  Type.Object({ ...orderFields(prefix, parentPrefix, parentField, what), object: objectName(object) });
