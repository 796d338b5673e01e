// Rules attached to object schemas: they run wherever that object appears (an inline address inside a
// mailpiece's `to` runs the address rules), and name the fields they check by their full path.
import type { TObject } from '@sinclair/typebox';
import type { Rule } from './types';

const RULES = Symbol.for('printpost.rules');

type WithRules = TObject & { [RULES]?: readonly Rule[] };

/** The schema, carrying `rules` (a symbol key: JSON never shows it, TypeBox's modifiers copy it). */
export function withRules<T extends TObject>(schema: T, rules: readonly Rule[]): T {
  Object.defineProperty(schema, RULES, { value: rules, enumerable: true });
  return schema;
}

export const rulesOf = (schema: TObject): readonly Rule[] => (schema as WithRules)[RULES] ?? [];

/** `at('address_city')` at the top level; `to.address_city` inside `to`. */
export const fieldPath =
  (prefix: string) =>
  (field: string): string =>
    prefix ? `${prefix}.${field}` : field;
