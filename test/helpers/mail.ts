// Bodies for mailpiece tests: inline addresses and a minimal valid create of each kind.
import { vendorResponseErrors } from './vendorSchema';

/**
 * Two differences are pinned, any other is a failure: until the renderer has made it a piece has no
 * url (the vendor's schema requires a link on its own asset host), and the vendor marks failure_reason
 * nullable only inside one allOf branch, so its own null fails its schema.
 */
const PINNED = [
  /^(\/data\/\d+)?\/url must be string \(got null\)/,
  /^(\/data\/\d+)?\/failure_reason must be object \(got null\)/,
];
export const pieceVendorErrors = (method: string, path: string, body: unknown) =>
  vendorResponseErrors(method, path, 200, body).filter((e) => !PINNED.some((p) => p.test(e)));

export const TO = {
  name: 'Harry Zhang',
  address_line1: '210 King St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
export const FROM = {
  name: 'Leore Avidar',
  address_line1: '185 Berry St',
  address_city: 'San Francisco',
  address_state: 'CA',
  address_zip: '94107',
};
export const ABROAD = {
  name: 'Anne Shirley',
  address_line1: '370 Water St',
  address_city: 'Summerside',
  address_state: 'PE',
  address_zip: 'C1N 1C4',
  address_country: 'CA',
};

export const postcard = (extra: Record<string, unknown> = {}) => ({
  to: TO,
  from: FROM,
  front: '<html><body><h1>Hello {{name}}</h1></body></html>',
  back: '<html><body><p>Back</p></body></html>',
  use_type: 'marketing',
  merge_variables: { name: 'Harry' },
  ...extra,
});

export const letter = (extra: Record<string, unknown> = {}) => ({
  to: TO,
  from: FROM,
  file: '<html><body><p>Dear {{name}},</p></body></html>',
  color: false,
  use_type: 'operational',
  merge_variables: { name: 'Harry' },
  ...extra,
});

export const selfMailer = (extra: Record<string, unknown> = {}) => ({
  to: TO,
  from: FROM,
  inside: '<html><body>Inside</body></html>',
  outside: '<html><body>Outside</body></html>',
  use_type: 'marketing',
  ...extra,
});

export const snapPack = selfMailer;

/** A verified test-mode bank account's id. */
export async function verifiedBankAccount(
  api: (method: string, path: string, options?: { json?: unknown }) => Promise<{ status: number; body: any }>,
): Promise<string> {
  const created = await api('POST', '/v1/bank_accounts', {
    json: { routing_number: '322271627', account_number: '123456789', account_type: 'company', signatory: 'Jane Doe' },
  });
  const verified = await api('POST', `/v1/bank_accounts/${created.body.id}/verify`, { json: { amounts: [11, 35] } });
  if (verified.status !== 200) throw new Error(JSON.stringify(verified.body));
  return created.body.id as string;
}

export const check = (bankAccount: string, extra: Record<string, unknown> = {}) => ({
  to: TO,
  from: FROM,
  bank_account: bankAccount,
  amount: 22.5,
  use_type: 'operational',
  ...extra,
});

/** A date-time `days` days from now, as the API takes it. */
export const daysAhead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
