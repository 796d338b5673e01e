// Shared by the verification suites: vendor-schema checks with the vendor's own known schema bugs
// pinned narrowly, and accounts with the settings a suite needs.
import type { ExecutionContext } from 'ava';
import type { SuiteContext } from '../../helpers/suite';
import { client, type Reply } from '../../helpers/http';
import { vendorResponseErrors } from '../../helpers/vendorSchema';

/**
 * Vendor schema bug (see test/helpers/vendorSchema.ts notes, item 3): US `components` of results
 * without a ZIP+4 or carrier route carry "" in zip_code, zip_code_plus_4, county_fips and
 * carrier_route_type, which the vendor returns but its schema refuses. Only those, only when "".
 */
const EMPTY_COMPONENT = /^\/components\/(zip_code|zip_code_plus_4|carrier_route_type|county_fips) .*\(got ""\)/;
/** Vendor schema bug (item 2): a bulk error entry matches both oneOf branches. */
const BULK_ERROR_ENTRY = /^\/addresses\/\d+ must match exactly one schema in oneOf/;

export function vendorErrors(method: string, path: string, reply: Reply): string[] {
  return vendorResponseErrors(method, path, reply.status, reply.body).filter(
    (e) => !EMPTY_COMPONENT.test(e) && !BULK_ERROR_ENTRY.test(e),
  );
}

export function conforms(t: ExecutionContext, method: string, path: string, reply: Reply, status = 200): void {
  t.is(reply.status, status, `${method} ${path}: ${JSON.stringify(reply.body).slice(0, 400)}`);
  t.deepEqual(vendorErrors(method, path, reply), [], `${method} ${path} -> ${reply.status}`);
}

export interface Account {
  name: string;
  keys: { test: string; live: string; testPub: string; livePub: string };
  /** calls with the account's test secret key unless `key` is given */
  api: ReturnType<typeof client>;
}

/** An account of its own (rate limit raised unless given), with its settings. */
export async function freshAccount(
  { engine, db }: SuiteContext,
  settings: Record<string, string | number | boolean> = {},
): Promise<Account> {
  const name = `verify-${db}-${Math.random().toString(36).slice(2)}`;
  const keys = await engine.createAccount(name);
  const all = { rate_limit_per_5s: 100_000, ...settings };
  for (const [setting, value] of Object.entries(all)) await engine.setSetting(setting as never, value, name);
  return { name, keys, api: client(engine.url, keys.test) };
}
