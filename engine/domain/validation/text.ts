// Text the engine prints, stores and hands on must be what the client meant, or be refused, naming the
// field: never altered. Two faults are refused in every string and key:
// - an unpaired surrogate: a JSON `\ud800` escape, or bytes that were not UTF-8 (http/utf8.ts keeps
//   each such byte visible as one, U+DC80..U+DCFF, rather than a silent U+FFFD); strict JSON parsers
//   refuse the lists and webhook bodies that would carry it, and no printer can set it;
// - outside markup a designer writes (HTML artwork, template HTML: catalog `markup`), a bidi embedding,
//   override or isolate (U+202A..U+202E, U+2066..U+2069): each opens a scope that reorders the text
//   after it, so an address line, a name or a merged value would print other than it reads.
// The implicit direction marks (U+200E LRM, U+200F RLM, U+061C ALM) stay allowed: they open no scope,
// cannot reverse a run of Latin letters or digits in the left-to-right address block, and a Hebrew or
// Arabic name may need one to keep its punctuation in place.
// One walk, shared by validate.ts (every API body and query, the dashboard's forms, the agent tools
// through the API, a campaign's creatives) and by each row of an uploaded audience.
import { KindGuard, type TSchema } from '@sinclair/typebox';
import { MARKUP } from '../../catalog/fields';

const SUSPECT = /[\uD800-\uDFFF\u202A-\u202E\u2066-\u2069]/;
const UNPAIRED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;

const codePoint = (char: string) => `U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What is wrong with `text` (completing "<field> ..."), or undefined; markup may hold bidi controls. */
export function textFault(text: string, markup = false): string | undefined {
  if (!SUSPECT.test(text)) return undefined;
  if (UNPAIRED.test(text))
    return 'is not valid UTF-8 text: it holds bytes that are not UTF-8, or an unpaired surrogate (such as \\ud800)';
  const bidi = markup ? null : BIDI_CONTROL.exec(text);
  if (bidi)
    return `must not contain bidi formatting characters (${codePoint(bidi[0])}): they would reorder the printed text`;
  return undefined;
}

/** A schema as the walk reads it (any TypeBox schema is one). */
export type Schema = TSchema & {
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  patternProperties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema;
  [MARKUP]?: boolean;
};

const branches = (schema: Schema): Schema[] => (schema.anyOf ? schema.anyOf.flatMap(branches) : [schema]);

const isMarkup = (schema: Schema | undefined) =>
  schema !== undefined && branches(schema).some((b) => b[MARKUP] === true && KindGuard.IsString(b));

/** The schema of `key` in an object `schema` describes: a property, a record's values, or extra keys. */
function memberOf(schema: Schema | undefined, key: string): Schema | undefined {
  for (const branch of schema ? branches(schema) : []) {
    const member =
      branch.properties?.[key] ??
      Object.values(branch.patternProperties ?? {})[0] ??
      (typeof branch.additionalProperties === 'object' ? branch.additionalProperties : undefined);
    if (member) return member;
  }
  return undefined;
}

const itemsOf = (schema: Schema | undefined) => (schema ? branches(schema).find((b) => b.items)?.items : undefined);

/** The schema at `steps` (keys, and indexes of arrays) below `schema`. */
function schemaAt(schema: Schema | undefined, steps: readonly (string | number)[]): Schema | undefined {
  let at = schema;
  for (const step of steps) at = typeof step === 'number' ? itemsOf(at) : memberOf(at, step);
  return at;
}

const named = (steps: readonly (string | number)[]) =>
  steps.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('') || 'body';

/**
 * The first text fault in `value` (described by `schema`, which says which strings are markup), as the
 * spec's message naming its field (`to.name must not ...`), or undefined. The walk tests each string
 * and key for a suspect character only, and reads the schema for the rare one that has one (measured
 * on a postcard body: about 1.3 µs a body; reading the schema for every string cost about 45 µs).
 */
export function textFaultIn(value: unknown, schema: Schema | undefined, path?: string): string | undefined {
  const root = path ? [path] : [];
  const stack: { value: unknown; steps: (string | number)[] }[] = [{ value, steps: root }];
  while (stack.length > 0) {
    const { value: item, steps } = stack.pop()!;
    if (typeof item === 'string') {
      if (!SUSPECT.test(item)) continue;
      const fault = textFault(item, isMarkup(schemaAt(schema, steps.slice(root.length))));
      if (fault) return `${named(steps)} ${fault}`;
    } else if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i--) stack.push({ value: item[i], steps: [...steps, i] });
    } else if (typeof item === 'object' && item !== null) {
      const entries = Object.entries(item);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, member] = entries[i];
        const fault = SUSPECT.test(key) ? textFault(key) : undefined;
        if (fault) return `${named(steps)} has a key that ${fault}`;
        stack.push({ value: member, steps: [...steps, key] });
      }
    }
  }
  return undefined;
}
