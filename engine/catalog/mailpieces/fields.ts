// Field types every mailpiece kind shares (spec: Shared field types), with the spec's limits in the
// schema itself; what a schema cannot say is in ./rules.ts.
import { Type, type TSchema } from '@sinclair/typebox';
import { addressInput, addressObjectFields } from '../address-fields';
import { id, markup, nullable, objectName, stamps } from '../fields';
import { idPatternFor } from '../paths';
import { upload } from '../uploads';

/** An address book id or an inline address (stored through the address book on create). */
export const addressRef = (what: string) =>
  Type.Union(
    [Type.String({ pattern: idPatternFor('adr'), errorMessage: 'must be an address id (adr_...)' }), addressInput()],
    {
      description: `${what}: an address id (adr_...) or an inline address object.`,
      examples: ['adr_d3489cd64c791ab5'],
    },
  );

/** The address object as a piece shows it (its own id: inline addresses are saved to the book). */
export const addressObject = () =>
  Type.Object({
    id: id('adr', 'address'),
    ...addressObjectFields(),
    ...stamps(),
    object: objectName('address'),
  });

/** An HTML string, template id, remote URL or uploaded file (spec: artwork of every kind). */
export const artwork = (what: string) =>
  Type.Union(
    [
      markup(
        Type.String({
          minLength: 1,
          maxLength: 9_999,
          description:
            'HTML (under 10,000 characters), a template id (tmpl_...) or an https:// URL of a PDF, PNG or JPEG.',
        }),
      ),
      upload({ description: 'an uploaded PDF, PNG or JPEG file' }),
    ],
    {
      description: `${what}: an HTML string (under 10,000 characters), a template id (tmpl_...), a remote file URL, or an uploaded PDF, PNG or JPEG.`,
      examples: ['<html><body><h1>Hello {{name}}</h1></body></html>'],
    },
  );

export const mergeVariables = () =>
  nullable(Type.Record(Type.String(), Type.Unknown()), {
    description:
      'Values for the {{variables}} of the artwork: at most 25,000 characters as JSON; names without whitespace or any of !"#%&\'()*+,/;<=>@[\\]^`{|}~.',
    examples: [{ name: 'Harry' }],
  });

export const sendDate = () =>
  Type.String({
    description:
      'When to send: an ISO 8601 date or date-time after now and at most 180 days ahead (a date alone is midnight UTC).',
    examples: ['2026-12-24'],
  });

export const mailType = () =>
  Type.Union([Type.Literal('usps_first_class'), Type.Literal('usps_standard')], {
    default: 'usps_first_class',
    description: 'usps_first_class (default) or usps_standard (not for 4x6 postcards nor outside the US).',
    examples: ['usps_first_class'],
  });

export const useType = () =>
  nullable(Type.Union([Type.Literal('marketing'), Type.Literal('operational')]), {
    description: 'marketing or operational; null (or absent) only when the account has a default use_type.',
    examples: ['marketing'],
  });

export const billingGroupId = () =>
  Type.String({
    pattern: idPatternFor('bg'),
    errorMessage: 'must be a billing group id (bg_...)',
    description: 'A billing group (bg_...) to bill the piece to.',
    examples: ['bg_4bb02b527a72667d0'],
  });

export const fsc = () =>
  Type.Boolean({ default: false, description: 'Print on FSC-certified paper (beta).', examples: [false] });

/** The sizes of a kind, the first one the default. */
export const sizeOf = (sizes: readonly string[], what: string) =>
  Type.Union(
    sizes.map((s) => Type.Literal(s)),
    { default: sizes[0], description: `${what}: ${sizes.join(', ')} (default ${sizes[0]}).`, examples: [sizes[0]] },
  );

const signedLink = (what: string) =>
  Type.String({
    description: `${what}: a signed link, expiring after 30 days; from create on, answering 404 until rendered.`,
  });

const thumbnail = () =>
  Type.Object({
    small: Type.String(),
    medium: Type.String(),
    large: Type.String(),
  });

const failureReason = () =>
  nullable(
    Type.Object({
      failure_reason: Type.String(),
      remediation: Type.String(),
      errors: Type.Optional(nullable(Type.Array(Type.Object({}, { additionalProperties: true })))),
    }),
    { description: 'Why rendering failed; null unless status is failed.' },
  );

/**
 * The engine's extension (docs/compat-notes.md, "Production"): absent until the piece goes to
 * production, which it then can no longer leave (nor be cancelled).
 */
const production = () =>
  Type.Object(
    {
      id: Type.String({ description: 'The print job (`pjob_…`): the name of its job ticket.' }),
      date_created: Type.String({ description: 'When the piece went to production (UTC, ISO 8601).' }),
      simulated: Type.Boolean({ description: 'true when moved by `simulate` (a test piece): nothing was printed.' }),
    },
    {
      description:
        'Engine extension: set once the piece is in production (a live piece past its cancellation window or send_date; a test piece only through simulate).',
    },
  );

/**
 * The engine's extension (README, "Production and tracking"): why the print room refused a piece in
 * production. The vendor's pieces have no such field (their `failure_reason` is a render failing, with
 * status `failed`); absent until the piece is rejected, which it then stays.
 */
const rejection = () =>
  Type.Object(
    {
      reason: Type.String({ description: 'Why the print room did not print or mail it, as it said.' }),
      date_created: Type.String({ description: 'When the rejection was recorded (UTC, ISO 8601).' }),
      simulated: Type.Optional(
        Type.Literal(true, { description: 'Only on a test piece rejected by `simulate`: no print room saw it.' }),
      ),
    },
    {
      description:
        'Engine extension: set once the print room rejects the piece in production; it is then not mailed (status stays rendered).',
    },
  );

/** The engine's extension: the Intelligent Mail barcode's codes, given once at render. */
const imbCodes = () =>
  Type.Object(
    {
      tracking_code: Type.String({
        description:
          'Barcode id, service type, Mailer ID and serial (20 digits); the sample Mailer ID 999999 in test mode.',
      }),
      routing_code: Type.String({
        description: 'The ZIP (5, 9 or 11 digits); empty abroad, where no barcode is printed.',
      }),
    },
    {
      description:
        "Engine extension: the codes of the piece's Intelligent Mail barcode as printed and as its job ticket quotes them; absent until rendered.",
    },
  );

/** The engine's extension: why a live piece waits before it is drawn; absent otherwise. */
const productionHold = () =>
  Type.Object(
    {
      reason: Type.String({ description: 'What the operator must do (the USPS identity to configure).' }),
      date_created: Type.String({ description: 'When the piece began to wait (UTC, ISO 8601).' }),
    },
    {
      description:
        "Engine extension: a live piece that cannot be drawn for mailing yet (the operator's USPS identity is not configured, or every serial number is in use) stays processed with the reason here; absent otherwise.",
    },
  );

/**
 * Response fields every kind has, besides its artwork and own fields. A kind whose sender is optional
 * leaves `from` out when it has none: the vendor types it as an address, never null.
 */
export const sharedObjectFields = (fromRequired = false) => ({
  to: addressObject(),
  from: fromRequired ? addressObject() : Type.Optional(addressObject()),
  url: signedLink('The rendered PDF'),
  carrier: Type.Literal('USPS', { description: 'Value is `USPS`.' }),
  tracking_events: Type.Array(Type.Object({}, { additionalProperties: true }), {
    description: 'Tracking events, oldest first; empty in test mode.',
  }),
  thumbnails: Type.Array(thumbnail(), { description: 'Signed PNG links per page, once rendered.' }),
  merge_variables: mergeVariables(),
  mail_type: mailType(),
  send_date: Type.String({ description: 'When the piece is sent (UTC, ISO 8601).' }),
  expected_delivery_date: Type.String({ format: 'date', description: 'YYYY-MM-DD, in business days from send_date.' }),
  use_type: useType(),
  description: nullable(Type.String({ maxLength: 255 })),
  metadata: Type.Record(Type.String(), Type.String()),
  campaign_id: nullable(Type.String({ description: 'The campaign that created the piece, if any.' })),
  billing_group_id: nullable(Type.String({ description: 'The billing group the piece is billed to.' })),
  status: Type.Union([Type.Literal('processed'), Type.Literal('rendered'), Type.Literal('failed')], {
    description: 'processed (rendering), rendered, or failed.',
  }),
  failure_reason: failureReason(),
  production: Type.Optional(production()),
  rejection: Type.Optional(rejection()),
  imb: Type.Optional(imbCodes()),
  production_hold: Type.Optional(productionHold()),
});

/** `front` -> `front_template_id` and `front_template_version_id`; letters' `file` -> `template_id`. */
export const templateFieldsOf = (side: string, named: boolean): [string, string] =>
  named ? [`${side}_template_id`, `${side}_template_version_id`] : ['template_id', 'template_version_id'];

/** How a kind shows the template ids of artwork given without a template: null, or left out. */
export type UnsetTemplateIds = 'null' | 'absent';

export const templateIdFields = (
  sides: readonly { field: string; named: boolean }[],
  unset: UnsetTemplateIds = 'null',
): Record<string, TSchema> => {
  const unsetAs = (schema: TSchema) => (unset === 'null' ? nullable(schema) : Type.Optional(schema));
  return Object.fromEntries(
    sides.flatMap(({ field, named }) => {
      const [template, version] = templateFieldsOf(field, named);
      return [
        [template, unsetAs(Type.String({ description: `The template of ${field}, when it named one.` }))],
        [version, unsetAs(Type.String({ description: `The template version ${field} was rendered from.` }))],
      ];
    }),
  );
};
