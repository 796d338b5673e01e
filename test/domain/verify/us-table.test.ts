// The 277 real-world addresses of the Pub 28 table (test/domain/verify/usps/fixtures), sent through the HTTP
// API with a live key: each comes back deliverable in its standardized form, unless its ZIP is not in
// the ZIP database, and every response validates against the vendor schema.
import { databaseSuite, type SuiteContext } from '../../helpers/suite';
import { ADDRESS_CASES } from './usps/fixtures/addresses';
import { parseUsAddress } from '../../../engine/domain/verify/usps';
import { lookupZip, normalizeCity } from '../../../engine/domain/verify/zipdb';
import { freshAccount, vendorErrors, type Account } from './helpers';

const { test } = databaseSuite();

const accounts = new Map<string, Promise<Account>>();
const accountFor = (ctx: SuiteContext) => {
  let account = accounts.get(ctx.db);
  if (!account) {
    account = freshAccount(ctx, { payment_method_verified: true });
    accounts.set(ctx.db, account);
  }
  return account;
};

/** The request body for a fixture: one string, or the components (a fixture's last line split up). */
function body(input: (typeof ADDRESS_CASES)[number]['input']): Record<string, string> {
  if (typeof input === 'string') return { address: input };
  const last = input.lastLine ? parseUsAddress({ primaryLine: '', lastLine: input.lastLine }) : undefined;
  const out: Record<string, string | null | undefined> = {
    primary_line: input.primaryLine,
    secondary_line: input.secondaryLine,
    urbanization: input.urbanization,
    city: input.city ?? last?.city,
    state: input.state ?? last?.state,
    zip_code: input.zipCode ?? (last ? [last.zip_code, last.zip_code_plus_4].filter(Boolean).join('-') : undefined),
  };
  return Object.fromEntries(
    Object.entries(out).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''),
  );
}

ADDRESS_CASES.forEach(({ input, expected }, i) => {
  test(`live #${i} ${typeof input === 'string' ? input : JSON.stringify(input)}`, async (t, ctx) => {
    const { api, keys } = await accountFor(ctx);
    const r = await api('POST', '/v1/us_verifications', { key: keys.live, json: body(input) });
    t.is(r.status, 200, JSON.stringify(r.body));
    t.deepEqual(vendorErrors('POST', '/v1/us_verifications', r), []);
    const want = parseUsAddress({ primaryLine: '', lastLine: expected.lastLine });
    const known = lookupZip(want.zip_code) !== undefined;
    t.is(
      r.body.deliverability,
      known ? 'deliverable' : 'undeliverable',
      `ZIP ${want.zip_code} ${known ? 'is' : 'is not'} in the ZIP database`,
    );
    t.is(r.body.primary_line, expected.primaryLine);
    t.is(r.body.secondary_line, expected.secondaryLine ?? '');
    t.is(r.body.urbanization, expected.urbanization ?? '');
    // The city is spelled as the ZIP database spells it (ST LOUIS -> SAINT LOUIS); a name the database
    // does not list for the ZIP (an alias it lacks: LAKE BUENA VISTA) becomes the ZIP's own city, which
    // USPS accepts too; the rest is exact.
    const c = r.body.components;
    const record = lookupZip(want.zip_code);
    const listed =
      !record ||
      (record.type === 'military' && /^[AFD]PO$/.test(want.city)) ||
      record.cities.some((city) => normalizeCity(city) === normalizeCity(want.city));
    const city = listed ? want.city : record.city;
    t.is(normalizeCity(c.city), normalizeCity(city), `${c.city} vs ${city}`);
    t.is(c.state, want.state);
    t.is(c.zip_code, want.zip_code);
    if (known) t.is(c.zip_code_plus_4, want.zip_code_plus_4);
    t.is(r.body.deliverability_analysis.dpv_confirmation, '');
  });
});
