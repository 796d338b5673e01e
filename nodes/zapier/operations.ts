// How the Zapier app finds a resource's operations and fills their paths, shared by its creates,
// searches and triggers: the retrieve and list of a resource, the input fields of path parameters
// (each with its resource's dropdown), keys and sentences Zapier accepts.
import type { PackOperation, PackResource } from '../common/pack-catalog';
import { listOperation, pathParams } from '../common/schema';
import { dropdown, type InputField } from './fields';

export const retrieveOp = (r: PackResource) =>
  r.operations.find((o) => o.method === 'GET' && o.response === 'object' && pathParams(o).includes('id'));

/** The resource's list, top-level or under a parent (`/v1/templates/{tmpl_id}/versions`). */
export const listOf = (r: PackResource) =>
  listOperation(r) ?? r.operations.find((o) => o.response === 'list' && o.method === 'GET');

export const listable = (r: PackResource) => !!listOf(r);

/** The resource a path parameter names: `{id}` the operation's own, `{tmpl_id}` the one with that prefix. */
const named = (param: string, r: PackResource, resources: readonly PackResource[]) =>
  param === 'id' ? r : (resources.find((x) => `${x.idPrefix}_id` === param) ?? r);

/** Input fields for an operation's path parameters, each with the dropdown of the resource it names. */
export function pathFields(
  r: PackResource,
  op: PackOperation,
  resources: readonly PackResource[],
  verb: string,
): InputField[] {
  return pathParams(op).map((p) => {
    const target = named(p, r, resources);
    return {
      key: p,
      label: target.title,
      required: true,
      type: 'string' as const,
      helpText: `The ${target.title.toLowerCase()} ${p === 'id' ? `to ${verb}` : `it belongs to`}, by ID (\`${target.idPrefix}_...\`).`,
      ...(listable(target) && { dynamic: dropdown(target, listable) }),
    };
  });
}

export const key = (...parts: string[]) => parts.join('_').replace(/[^a-zA-Z0-9_]/g, '_');

export const fillPath = (op: PackOperation, input: Record<string, unknown>) =>
  op.path.replace(/\{(\w+)\}/g, (_, p: string) => encodeURIComponent(String(input[p] ?? '')));

export const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** A description Zapier accepts: a sentence of at least some length. */
export const sentence = (s: string) => (s.endsWith('.') ? s : `${s}.`);
