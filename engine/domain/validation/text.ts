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

type Schema = TSchema & {
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

/**
 * The first text fault in `value` (described by `schema`, which says which strings are markup), as the
 * spec's message naming its field (`to.name must not ...`), or undefined. `path` names `value` itself.
 */
export function textFaultIn(value: unknown, schema: TSchema | undefined, path = ''): string | undefined {
  const where = path || 'body';
  if (typeof value === 'string') {
    const fault = textFault(value, isMarkup(schema));
    return fault && `${where} ${fault}`;
  }
  if (Array.isArray(value)) {
    const items = itemsOf(schema);
    for (const [i, item] of value.entries()) {
      const fault = textFaultIn(item, items, `${path}[${i}]`);
      if (fault) return fault;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const keyFault = textFault(key);
    if (keyFault) return `${where} has a key that ${keyFault}`;
    const fault = textFaultIn(item, memberOf(schema, key), path ? `${path}.${key}` : key);
    if (fault) return fault;
  }
  return undefined;
}
