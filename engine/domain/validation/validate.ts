// Validation against the catalog's schemas: coerce (form bodies and queries arrive as strings),
// check, and turn the first failure into the spec's `<field> is required` / `<field> must be …` message.
import { Kind, KindGuard, type Static, type TSchema, type TObject } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { ApiError } from '../../base/errors';
import { coerceTo } from './coerce';
import type { Rule } from '../../catalog/types';
import { fieldPath } from '../../catalog/rules';
import { complete, rejectUnknownKeys } from './schema-walk';
import { isPlainObject } from './values';
import { textFaultIn } from './text';

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

function checker<T extends TSchema>(schema: T): TypeCheck<T> {
  // keyed by the schema object itself: what is stored under `schema` was compiled from it
  const cached = compiled.get(schema) as TypeCheck<T> | undefined;
  if (cached) return cached;
  const check = TypeCompiler.Compile(schema);
  compiled.set(schema, check);
  return check;
}

/**
 * Validates `input` against `schema`, the rules attached to its objects at every depth, and the
 * operation's own `rules`; returns the coerced value with defaults filled, or throws a 422.
 */
export function validate<T extends TObject>(schema: T, input: unknown, rules: readonly Rule[] = []): Static<T> {
  const value = coerce(schema, input ?? {});
  rejectUnknownKeys(schema, value);
  // before the schema's checks: a field holding bytes that were not UTF-8 is named for them, not its pattern
  const fault = textFaultIn(value, schema);
  if (fault) throw new ApiError('invalid', fault, 422);
  const check = checker(schema);
  if (!check.Check(value)) throw new ApiError('invalid', describe(firstError([...check.Errors(value)])), 422);
  complete(schema, value, (member, v) => checker(member).Check(v));
  const at = fieldPath('');
  for (const rule of rules) {
    const violation = rule(value, at);
    if (violation) throw new ApiError(violation.code ?? 'invalid', violation.message, violation.status ?? 422);
  }
  return value;
}

/** Form values are strings and single query values are not arrays: shape them to the schema. */
function coerce(schema: TObject, input: unknown): Record<string, unknown> {
  if (!isPlainObject(input)) throw new ApiError('invalid', 'request body must be an object', 422);
  const value: Record<string, unknown> = { ...input };
  for (const [key, prop] of Object.entries(schema.properties)) {
    const field = value[key];
    if (field === undefined) continue;
    if (isArraySchema(prop) && !Array.isArray(field))
      value[key] = typeof field === 'string' && field.includes(',') ? field.split(',') : [field];
    if (isArraySchema(prop) && isPlainObject(field) && Object.keys(field).every((k) => /^\d+$/.test(k)))
      value[key] = Object.values(field);
  }
  return coerceTo(schema, value) as Record<string, unknown>;
}

function isArraySchema(schema: TSchema): boolean {
  return KindGuard.IsArray(schema) || (KindGuard.IsUnion(schema) && schema.anyOf.some((s) => s[Kind] === 'Array'));
}

/** Prefer the most specific error: inside a union, the branch whose type the value has. */
function firstError(errors: ValueError[]): ValueError {
  const error = errors[0];
  if (error.type !== ValueErrorType.Union) return error;
  const branches = error.errors.map((it) => [...it]);
  const typed = branches.find((b) => b.length > 0 && !(TYPE_ERRORS.has(b[0].type) && b[0].path === error.path));
  return typed ? firstError(typed) : error;
}

const TYPE_ERRORS = new Set([
  ValueErrorType.String,
  ValueErrorType.Number,
  ValueErrorType.Integer,
  ValueErrorType.Boolean,
  ValueErrorType.Null,
  ValueErrorType.Object,
  ValueErrorType.Array,
  ValueErrorType.Literal,
]);

function describe(error: ValueError): string {
  const field = error.path.replace(/^\//, '').replace(/\//g, '.') || 'body';
  const s = error.schema as Record<string, unknown>;
  const custom = s.errorMessage as string | undefined;
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return `${field} is required`;
    case ValueErrorType.StringMaxLength:
      return `${field} must be at most ${s.maxLength} characters`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1
        ? `${field} is not allowed to be empty`
        : `${field} must be at least ${s.minLength} characters`;
    case ValueErrorType.StringPattern:
    case ValueErrorType.StringFormat:
      return `${field} ${custom ?? 'is not in the expected format'}`;
    case ValueErrorType.ObjectMaxProperties:
      return `${field} must have at most ${s.maxProperties} keys`;
    case ValueErrorType.ObjectAdditionalProperties:
      return `${field} contains a key that is not allowed${custom ? `: ${custom}` : ''}`;
    case ValueErrorType.IntegerMaximum:
    case ValueErrorType.NumberMaximum:
      return `${field} must be less than or equal to ${s.maximum}`;
    case ValueErrorType.IntegerMinimum:
    case ValueErrorType.NumberMinimum:
      return `${field} must be greater than or equal to ${s.minimum}`;
    case ValueErrorType.ArrayMaxItems:
      return `${field} must contain at most ${s.maxItems} items`;
    case ValueErrorType.ArrayMinItems:
      return `${field} must contain at least ${s.minItems} items`;
    case ValueErrorType.Integer:
      return `${field} must be an integer`;
    case ValueErrorType.Number:
      return `${field} must be a number`;
    case ValueErrorType.Boolean:
      return `${field} must be a boolean`;
    case ValueErrorType.String:
      return `${field} must be a string`;
    case ValueErrorType.Object:
      return `${field} must be an object`;
    case ValueErrorType.Array:
      return `${field} must be an array`;
    case ValueErrorType.Literal:
      return `${field} must be ${JSON.stringify(s.const)}`;
    case ValueErrorType.Union:
      return `${field} must be ${unionText(s)}`;
    default:
      return `${field} is invalid`;
  }
}

function unionText(schema: Record<string, unknown>): string {
  const members = (schema.anyOf as Record<string, unknown>[]) ?? [];
  if (members.every((m) => 'const' in m || m.type === 'null')) {
    return `one of [${members.map((m) => (m.type === 'null' ? 'null' : String(m.const))).join(', ')}]`;
  }
  return members.map((m) => (m.type === 'null' ? 'null' : `a ${String(m.type ?? 'value')}`)).join(' or ');
}
