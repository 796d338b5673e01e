// Path templates name their parameters: `{id}` is the resource's own object, `{<prefix>_id}` an object
// of the resource with that id prefix (`/v1/templates/{tmpl_id}/versions/{id}`).

/** `{name}` segments of a path template, in order. */
export const pathParameterNames = (template: string): string[] => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

/** The id prefix a parameter names, or undefined for `{id}` (the operation's own resource). */
export const prefixOfParameter = (name: string): string | undefined => /^([a-z]+)_id$/.exec(name)?.[1];

/** The id pattern every resource's ids follow, from its prefix. */
export const idPatternFor = (prefix: string): string => `^${prefix}_[a-zA-Z0-9]+$`;

const namesOf = new Map<string, string[]>();

/** The parameters `template` names, read from what a router matched; each must be there. */
export function pathParams(template: string, matched: Readonly<Record<string, string>>): Record<string, string> {
  let names = namesOf.get(template);
  if (!names) {
    names = pathParameterNames(template);
    namesOf.set(template, names);
  }
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = matched[name];
    if (value === undefined) throw new Error(`the route of ${template} matched no {${name}}`);
    params[name] = value;
  }
  return params;
}
