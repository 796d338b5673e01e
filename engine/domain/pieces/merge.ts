// Merge variables at create: a template's required_vars must be supplied, and under strict merge
// variable strictness so must every variable the HTML reads (relaxed renders missing ones empty).
import { ApiError } from '../../base/errors';
import { usedVariables } from '../../print/merge-variables';
import type { ResolvedArtwork } from './artwork';

export function assertMergeVariables(
  artwork: ResolvedArtwork['html'],
  variables: Record<string, unknown> | null | undefined,
  strictness: string,
): void {
  const supplied = (name: string) => variables != null && Object.hasOwn(variables, name);
  for (const { field, html, required, compiled } of artwork) {
    const missing = required.find((name) => !supplied(name));
    if (missing) throw missingVariable(field, missing);
    // A template version compiled when it was made; other HTML is parsed here, which also refuses HTML
    // that would not render (invalid_template_html), whatever the strictness.
    if (compiled && strictness !== 'strict') continue;
    const used = usedVariables(html, field);
    if (strictness !== 'strict') continue;
    for (const name of used) if (!supplied(name)) throw missingVariable(field, name);
  }
}

const missingVariable = (field: string, name: string) =>
  new ApiError('merge_variable_required', `merge_variables.${name} is required by ${field}`, 422);
