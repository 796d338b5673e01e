// One catalog field as n8n parameters: its type, options, defaults and limits, where it is sent
// (routing.send with the API's own field names), resource locators for ids, collections for the
// optional rest. Nothing in here names a resource or a field.
import type { IDataObject, INodeProperties, INodePropertyOptions, IDisplayOptions } from 'n8n-workflow';
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { listSearchName } from './runtime';
import { fieldsOf, listOperation, optionLabel, title, type Field } from '../common/schema';

export const show = (
  resource: PackResource,
  op: PackOperation,
  extra: NonNullable<IDisplayOptions['show']> = {},
): IDisplayOptions => ({
  show: { resource: [resource.name], operation: [op.name], ...extra },
});

/** n8n wants descriptions to end without a dangling space; the catalog's are sentences already. */
export const describe = (f: Field) => f.description || title(f.name);

const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

export function resourceLocator(
  name: string,
  displayName: string,
  ref: PackResource,
  required: boolean,
  description: string,
): INodeProperties {
  const hasList = !!listOperation(ref);
  const modes: INodeProperties['modes'] = [];
  if (hasList) {
    modes.push({
      displayName: 'From List',
      name: 'list',
      type: 'list',
      placeholder: `Select ${article(ref.title)} ${ref.title.toLowerCase()}...`,
      typeOptions: { searchListMethod: listSearchName(ref), searchable: true },
    });
  }
  modes.push({
    displayName: 'ID',
    name: 'id',
    type: 'string',
    placeholder: `${ref.idPrefix}_d3489cd64c791ab5`,
    validation: [
      {
        type: 'regex',
        properties: {
          regex: ref.idPattern.replace(/^\^|\$$/g, ''),
          errorMessage: `Not a valid ${ref.title.toLowerCase()} ID (${ref.idPrefix}_...)`,
        },
      },
    ],
  });
  return {
    displayName,
    name,
    type: 'resourceLocator',
    default: { mode: hasList ? 'list' : 'id', value: '' },
    required,
    modes,
    description,
  };
}

/** One field as an n8n parameter (without displayOptions and routing). */
export function parameter(f: Field, resources: readonly PackResource[], nested = false): INodeProperties {
  const base = {
    displayName: title(f.name),
    name: f.name,
    description: describe(f),
    required: (f.required && !nested) || undefined,
  };
  const k = f.kind;
  const placeholder = typeof f.example === 'string' ? `e.g. ${f.example}` : undefined;
  switch (k.kind) {
    case 'string':
      if (k.ref && !nested) return resourceLocator(f.name, base.displayName, k.ref, f.required, base.description);
      return {
        ...base,
        type: 'string',
        default: typeof f.default === 'string' ? f.default : '',
        ...(placeholder && { placeholder }),
      };
    case 'number': {
      const typeOptions: IDataObject = {};
      if (k.schema.minimum !== undefined) typeOptions.minValue = k.schema.minimum;
      if (k.schema.maximum !== undefined) typeOptions.maxValue = k.schema.maximum;
      if (k.integer) typeOptions.numberPrecision = 0;
      const def = typeof f.default === 'number' ? f.default : (k.schema.minimum ?? 0);
      return { ...base, type: 'number', default: def, typeOptions };
    }
    case 'boolean':
      return { ...base, type: 'boolean', default: typeof f.default === 'boolean' ? f.default : false };
    case 'options':
      return {
        ...base,
        type: 'options',
        options: k.values.map((v) => ({ name: optionLabel(v), value: v })),
        default: k.values.find((v) => v === f.default) ?? k.values[0],
      };
    case 'multiOptions':
      return {
        ...base,
        type: 'multiOptions',
        options: k.values.map((v) => ({ name: optionLabel(v), value: v })),
        default: Array.isArray(f.default) ? f.default : [],
      };
    case 'list':
      return {
        ...base,
        type: k.item.kind === 'number' ? 'number' : k.item.kind === 'boolean' ? 'boolean' : 'string',
        typeOptions: { multipleValues: true },
        default: [],
      };
    case 'file':
      // the text form of an upload field (HTML, a template ID, a URL); the file itself comes from a binary property
      return { ...base, type: 'string', typeOptions: { rows: 4 }, default: '', ...(placeholder && { placeholder }) };
    case 'record':
      // free-form values (merge variables may nest): JSON; string values: key/value pairs
      if (k.free) return { ...base, type: 'json', default: '{}' };
      return {
        ...base,
        type: 'fixedCollection',
        typeOptions: { multipleValues: true },
        placeholder: 'Add Key/Value Pair',
        default: {},
        options: [
          {
            displayName: 'Pair',
            name: 'pairs',
            values: [
              { displayName: 'Key', name: 'key', type: 'string', default: '' },
              { displayName: 'Value', name: 'value', type: 'string', default: '' },
            ],
          },
        ],
      };
    case 'object':
      return {
        ...base,
        type: 'collection',
        placeholder: 'Add Field',
        default: {},
        options: fieldsOf(k.schema, resources).map((c) => parameter(c, resources, true)),
      };
    case 'objectList':
      return {
        ...base,
        type: 'fixedCollection',
        typeOptions: { multipleValues: true },
        placeholder: `Add ${title(f.name)}`,
        default: {},
        options: [
          {
            displayName: title(f.name),
            name: 'items',
            values: fieldsOf(k.item, resources).map((c) => parameter(c, resources, true)),
          },
        ],
      };
    case 'idOrObject':
      // handled by fieldParameters (a source selector and two alternatives); inside collections, JSON
      return { ...base, type: 'json', default: '' };
    case 'json':
    default:
      return { ...base, type: 'json', default: '' };
  }
}

export const sendAs = (type: 'body' | 'query', property: string) => ({ send: { type, property } });

/** The top-level parameters of one operation field: required ones on their own, the rest go to a collection. */
export function fieldParameters(
  r: PackResource,
  op: PackOperation,
  f: Field,
  where: 'body' | 'query',
  resources: readonly PackResource[],
): INodeProperties[] {
  if (f.kind.kind === 'idOrObject') {
    const k = f.kind;
    const modeName = `${f.name}Source`;
    const sources: INodePropertyOptions[] = [];
    if (!f.required) sources.push({ name: 'None', value: 'none', description: `Do not send ${f.name}` });
    sources.push({
      name: k.ref ? `Saved ${k.ref.title}` : 'ID',
      value: 'id',
      description: `Send the ID of a saved ${(k.ref?.title ?? 'object').toLowerCase()}`,
    });
    sources.push({ name: 'Inline', value: 'inline', description: 'Send the object itself' });
    const idParam: INodeProperties = k.ref
      ? resourceLocator(f.name, title(f.name), k.ref, true, describe(f))
      : {
          displayName: title(f.name),
          name: f.name,
          type: 'string',
          default: '',
          required: true,
          description: describe(f),
        };
    const inline = fieldsOf(k.object, resources);
    const required = inline.filter((c) => c.required).map((c) => parameter(c, resources, true));
    const optional = inline.filter((c) => !c.required).map((c) => parameter(c, resources, true));
    return [
      {
        displayName: `${title(f.name)} Source`,
        name: modeName,
        type: 'options',
        noDataExpression: true,
        options: sources,
        default: f.required ? 'id' : 'none',
        description: describe(f),
        displayOptions: show(r, op),
      },
      { ...idParam, displayOptions: show(r, op, { [modeName]: ['id'] }), routing: sendAs(where, f.name) },
      {
        displayName: title(f.name),
        name: f.name,
        type: 'fixedCollection',
        default: {},
        placeholder: `Add ${title(f.name)}`,
        required: true,
        description: describe(f),
        displayOptions: show(r, op, { [modeName]: ['inline'] }),
        options: [
          {
            displayName: title(f.name),
            name: 'values',
            values: [...required.map((p) => ({ ...p, required: true })), ...optional],
          },
        ],
        routing: { send: { type: where, property: f.name, value: '={{ $value.values }}' } },
      },
    ];
  }
  const p = parameter(f, resources);
  return [{ ...p, displayOptions: show(r, op), routing: sendAs(where, f.name) }];
}

export function collectionOf(
  name: string,
  displayName: string,
  r: PackResource,
  op: PackOperation,
  children: INodeProperties[],
): INodeProperties {
  return {
    displayName,
    name,
    type: 'collection',
    placeholder: 'Add Field',
    default: {},
    displayOptions: show(r, op),
    options: children,
  };
}

/** Parameters inside a collection keep their routing; n8n applies it per option. */
export const asOption = (p: INodeProperties, where: 'body' | 'query'): INodeProperties => ({
  ...p,
  required: undefined,
  routing: sendAs(where, p.name),
});
