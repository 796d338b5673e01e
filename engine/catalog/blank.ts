// Dependency-free, so the packs share it: what counts as "not given" in a body or a form.

/** Absent, null, or only whitespace. */
export const isBlank = (v: unknown): boolean => v === undefined || v === null || String(v).trim() === '';
