// How one configuration variable's text becomes its value: the parsers config.ts's table names, each
// refusing a bad value at start with a ConfigError that names the variable.
import { USPS_CHECKS } from '../catalog/usps-identity';
import { AGENT_TOOLS } from '../catalog/agent-tools';

export class ConfigError extends Error {}

export const text = (raw: string | undefined) => raw || undefined;
export const required = (raw: string | undefined) => raw ?? '';

export function count(raw: string | undefined, env: string): number {
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isInteger(value) || value < 0) {
    throw new ConfigError(`${env} must be a whole number, got ${JSON.stringify(raw)}`);
  }
  return value;
}

export function positive(raw: string | undefined, env: string): number {
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${env} must be a number above 0, got ${JSON.stringify(raw)}`);
  return value;
}

export function oneOf<T extends string>(...values: T[]) {
  return (raw: string | undefined, env: string): T => {
    if (values.includes(raw as T)) return raw as T;
    throw new ConfigError(`${env} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  };
}

/** An optional value that must pass `check` when given. */
export function checked(check: (value: string) => string | undefined) {
  return (raw: string | undefined, env: string): string | undefined => {
    const value = raw?.trim() || undefined;
    const wrong = value === undefined ? undefined : check(value);
    if (wrong) throw new ConfigError(`${env} ${wrong}, got ${JSON.stringify(raw)}`);
    return value;
  };
}

export const stid = (raw: string | undefined, env: string): string => checked(USPS_CHECKS.stid)(raw, env) ?? '';

export const list = (raw: string | undefined): ReadonlySet<string> =>
  new Set(
    (raw ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

/** `+name,-name`: each a tool of the catalog's agent tools, refused at start otherwise. */
export function toolNames(raw: string | undefined, env: string): ReadonlySet<string> {
  const asked = list(raw);
  const known = new Set(AGENT_TOOLS.map((t) => t.name));
  const unknown = [...asked].filter((entry) => !known.has(entry.replace(/^[+-]/, '')));
  if (unknown.length > 0)
    throw new ConfigError(`${env} names no tool ${unknown.join(', ')} (the tools: ${[...known].join(', ')})`);
  return asked;
}
