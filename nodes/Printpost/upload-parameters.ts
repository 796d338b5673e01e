// Upload fields (an operation's `files`) as n8n parameters: the text form (HTML, template ID, URL) and
// the name of an input binary property whose file the runtime uploads (./uploads.ts) instead.
import type { INodeProperties } from 'n8n-workflow';
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { title, type Field } from '../common/schema';
import { asOption, describe, parameter, sendAs, show } from './parameters';
import { BINARY_SOURCE, binaryPropertyName, fileSourceName } from './uploads';

/** Whether a body field of the operation accepts an uploaded file (the catalog's `files`). */
export const isUpload = (op: PackOperation, f: Field) => !!op.files?.includes(f.name);

/** Whether an upload field may also be given as text (HTML, template ID, URL), or only as a file. */
const takesText = (f: Field) => f.kind.kind !== 'file' || !!f.kind.text;

/** The parameter naming the input binary property that holds an upload field's file. */
function binaryParameter(f: Field, required: boolean): INodeProperties {
  const what = title(f.name).toLowerCase();
  return {
    displayName: `${title(f.name)} Binary Property`,
    name: binaryPropertyName(f.name),
    type: 'string',
    default: 'data',
    required: required || undefined,
    description: takesText(f)
      ? `Name of the input binary field whose file (PDF, PNG or JPEG) is uploaded as ${what}, instead of the text`
      : `Name of the input binary field whose file (PDF, PNG or JPEG) is uploaded as ${what}`,
  };
}

/** A required upload field: a selector of text or binary file, then the text or the binary property name. */
export function uploadParameters(
  r: PackResource,
  op: PackOperation,
  f: Field,
  resources: readonly PackResource[],
): INodeProperties[] {
  const binary = binaryParameter(f, true);
  if (!takesText(f)) return [{ ...binary, displayOptions: show(r, op) }];
  const source = fileSourceName(f.name);
  const text = f.kind.kind === 'file' ? f.kind.text?.description : undefined;
  return [
    {
      displayName: `${title(f.name)} Source`,
      name: source,
      type: 'options',
      noDataExpression: true,
      options: [
        { name: 'Text', value: 'text', description: text ?? `The ${title(f.name).toLowerCase()} as text` },
        { name: 'Binary File', value: BINARY_SOURCE, description: 'A file from an input binary field, uploaded' },
      ],
      default: 'text',
      description: describe(f),
      displayOptions: show(r, op),
    },
    {
      ...parameter(f, resources),
      displayOptions: show(r, op, { [source]: ['text'] }),
      routing: sendAs('body', f.name),
    },
    { ...binary, displayOptions: show(r, op, { [source]: [BINARY_SOURCE] }) },
  ];
}

/** An optional body field as collection options: itself, and for an upload field its binary property. */
export function bodyOptions(op: PackOperation, f: Field, resources: readonly PackResource[]): INodeProperties[] {
  if (!isUpload(op, f)) return [asOption(parameter(f, resources), 'body')];
  return [
    ...(takesText(f) ? [asOption(parameter(f, resources), 'body')] : []),
    // read by the runtime's preSend (./uploads.ts), not routed
    binaryParameter(f, false),
  ];
}
