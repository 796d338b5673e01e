// Zapier input and output fields generated from the catalog's schemas, and the way back: turning
// what a Zap step typed into a request body the schema accepts.
import type { JsonSchema, PackResource } from '../common/pack-catalog';
import { coerceObject, fieldsOf, optionLabel, title, type Field } from '../common/schema';
import { isBlank } from '../../engine/catalog/blank';
import { isPlainObject } from '../common/guards';
import { uploadKey } from './uploads';

export interface InputField {
  key: string;
  label?: string;
  helpText?: string;
  type?: 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'datetime' | 'password' | 'copy' | 'file';
  required?: boolean;
  placeholder?: string;
  default?: string;
  dynamic?: string;
  dict?: boolean;
  list?: boolean;
  choices?: { value: string; sample: string; label: string }[];
  children?: InputField[];
  altersDynamicFields?: boolean;
}

export interface OutputField {
  key: string;
  label: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
}

/** Keys of nested inputs: `to__address_line1` (Zapier has no nested inputs). */
const SEP = '__';

/** Zapier wants help text of 10 to 1000 characters. */
const help = (f: Field) => {
  let text = f.description || `The ${title(f.name)}.`;
  if (f.example !== undefined && typeof f.example !== 'object') text += ` Example: \`${String(f.example)}\`.`;
  if (text.length < 10) text = `${text} (${f.name})`;
  return text.slice(0, 1000);
};

const choice = (v: string | number | boolean) => ({ value: String(v), sample: String(v), label: optionLabel(v) });

/** The hidden trigger that fills dropdowns of a resource's ids. */
export const listTriggerKey = (r: PackResource) => `${r.name}_list`;

export const dropdown = (r: PackResource | undefined, listable: (r: PackResource) => boolean) =>
  r && listable(r) ? `${listTriggerKey(r)}.id.label` : undefined;

/**
 * An upload field (the operation's `files`): its text form (HTML, template id, URL) and a Zapier file
 * field beside it; either may be given, so neither is required on its own.
 */
function uploadFields(f: Field): InputField[] {
  const name = title(f.name);
  const text = f.kind.kind !== 'file' || !!f.kind.text;
  const either = f.required ? ` ${name} or ${name} (File Upload) is required.` : '';
  const upload: InputField = {
    key: uploadKey(f.name),
    label: `${name} (File Upload)`,
    type: 'file',
    required: false,
    helpText: `A PDF, PNG or JPEG file uploaded as ${name.toLowerCase()}${text ? `, instead of ${name}` : ''}.${either}`,
  };
  if (!text) return [{ ...upload, required: f.required }];
  return [
    { key: f.name, label: name, type: 'text', required: false, helpText: `${help(f)}${either}`.slice(0, 1000) },
    upload,
  ];
}

export function inputFields(
  schema: JsonSchema | undefined,
  resources: readonly PackResource[],
  listable: (r: PackResource) => boolean,
  prefix = '',
  parentRequired = true,
  files: readonly string[] = [],
): InputField[] {
  const out: InputField[] = [];
  for (const f of fieldsOf(schema, resources)) {
    const key = prefix + f.name;
    const required = f.required && parentRequired && !prefix;
    const base: InputField = {
      key,
      label: prefix ? `${title(prefix.split(SEP)[0])}: ${title(f.name)}` : title(f.name),
      helpText: help(f),
      required,
    };
    if (!prefix && files.includes(f.name)) {
      out.push(...uploadFields(f));
      continue;
    }
    const k = f.kind;
    switch (k.kind) {
      case 'string': {
        const dyn = dropdown(k.ref, listable);
        out.push({
          ...base,
          type: 'string',
          ...(dyn && { dynamic: dyn }),
          ...(typeof f.default === 'string' && { default: f.default }),
        });
        break;
      }
      case 'number':
        out.push({
          ...base,
          type: k.integer ? 'integer' : 'number',
          ...(f.default !== undefined && { default: String(f.default) }),
        });
        break;
      case 'boolean':
        out.push({ ...base, type: 'boolean', ...(f.default !== undefined && { default: String(f.default) }) });
        break;
      case 'options':
        out.push({
          ...base,
          type: 'string',
          choices: k.values.map(choice),
          ...(f.default !== undefined && { default: String(f.default) }),
        });
        break;
      case 'multiOptions':
        out.push({ ...base, type: 'string', list: true, choices: k.values.map(choice) });
        break;
      case 'list':
        out.push({ ...base, type: k.item.kind === 'number' ? 'number' : 'string', list: true });
        break;
      case 'record':
        // free-form values too (merge variables): Zapier steps map flat key/value pairs
        out.push({ ...base, dict: true });
        break;
      case 'file':
        out.push({ ...base, type: 'text' });
        break;
      case 'object':
        out.push(...inputFields(k.schema, resources, listable, `${key}${SEP}`, false));
        break;
      case 'objectList':
        out.push({
          key: base.key,
          label: base.label,
          required: base.required,
          children: inputFields(k.item, resources, listable, `${key}${SEP}`, false),
        }); // Zapier: children and helpText are exclusive
        break;
      case 'idOrObject': {
        const dyn = dropdown(k.ref, listable);
        out.push({
          ...base,
          required: false,
          type: 'string',
          ...(dyn && { dynamic: dyn }),
          helpText:
            `${help(f)} Choose a saved ${(k.ref?.title ?? 'object').toLowerCase()}, or leave empty and fill in the ${title(f.name)} fields below.`.slice(
              0,
              1000,
            ),
        });
        out.push(...inputFields(k.object, resources, listable, `${key}${SEP}`, false));
        break;
      }
      default:
        out.push({ ...base, type: 'text', helpText: `${help(f)} As JSON.`.slice(0, 1000) });
    }
  }
  return out;
}

/** Fold `a__b` keys into nested objects (an id given for `a` wins over its inline fields), then coerce to the schema. */
export function buildBody(
  input: Record<string, unknown>,
  schema: JsonSchema,
  resources: readonly PackResource[],
): Record<string, unknown> {
  const known = schema.properties ?? {};
  const ids = new Set(
    Object.entries(input)
      .filter(([k, v]) => !k.includes(SEP) && typeof v === 'string' && v !== '')
      .map(([k]) => k),
  );
  const nested: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(input)) {
    if (isBlank(raw)) continue;
    const path = key.split(SEP);
    if (!(path[0] in known)) continue;
    if (path.length > 1 && ids.has(path[0])) continue;
    let value = raw;
    if (Array.isArray(raw)) {
      // line items: strip the `key__` prefix of each child
      value = raw.map((item) =>
        isPlainObject(item)
          ? Object.fromEntries(
              Object.entries(item)
                .filter(([, v]) => !isBlank(v))
                .map(([k, v]) => [k.startsWith(`${key}${SEP}`) ? k.slice(key.length + SEP.length) : k, v]),
            )
          : item,
      );
    }
    let target = nested;
    for (const part of path.slice(0, -1)) {
      const next = target[part];
      if (isPlainObject(next)) target = next;
      else {
        const fresh: Record<string, unknown> = {};
        target[part] = fresh;
        target = fresh;
      }
    }
    target[path[path.length - 1]] = value;
  }
  return coerceObject(nested, schema, resources);
}

/** Output fields: labels for the object's keys, nested objects flattened with `__`. */
export function outputFields(schema: JsonSchema, resources: readonly PackResource[], prefix = ''): OutputField[] {
  const out: OutputField[] = [];
  for (const f of fieldsOf(schema, resources)) {
    const key = prefix + f.name;
    const label = prefix ? `${title(prefix.split(SEP)[0])} ${title(f.name)}` : title(f.name);
    const k = f.kind;
    if (k.kind === 'object') out.push(...outputFields(k.schema, resources, `${key}${SEP}`));
    else if (k.kind === 'number') out.push({ key, label, type: k.integer ? 'integer' : 'number' });
    else if (k.kind === 'boolean') out.push({ key, label, type: 'boolean' });
    else if (k.kind === 'string' && k.schema.format === 'date-time') out.push({ key, label, type: 'datetime' });
    else if (k.kind === 'record' || k.kind === 'objectList' || k.kind === 'idOrObject' || k.kind === 'json')
      out.push({ key, label });
    else out.push({ key, label, type: 'string' });
  }
  return out;
}
