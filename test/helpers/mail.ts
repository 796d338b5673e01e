// Bodies for mailpiece tests: inline addresses and a minimal valid create of each kind.
import { vendorResponseErrors } from './vendorSchema';

/**
 * Differences pinned, any other is a failure: until the renderer has made it a piece has no url (the
 * vendor's schema requires a link on its own asset host); the vendor marks failure_reason, the
 * template id fields and a bank account's signature_url nullable only inside one allOf branch (or, for
 * checks' template ids, not at all), so the null the spec allows fails its schema. Those nulls are
 * left out before validating, so a oneOf over the whole object is judged on the rest.
 */
const PINNED_NULL = /^(url|failure_reason|\w+_template(_version)?_id)$/;

function withoutPinnedNulls(piece: unknown): unknown {
  if (typeof piece !== 'object' || piece === null) return piece;
  const copy: Record<string, unknown> = Object.fromEntries(
    Object.entries(piece).filter(([key, value]) => !(value === null && PINNED_NULL.test(key))),
  );
  const bank = copy.bank_account as Record<string, unknown> | undefined;
  if (bank && bank.signature_url === null) {
    const { signature_url: _null, ...rest } = bank;
    copy.bank_account = rest;
  }
  return copy;
}

export const pieceVendorErrors = (method: string, path: string, body: unknown) => {
  const shown = body as { object?: string; data?: unknown[] };
  const checked =
    shown?.object === 'list' ? { ...shown, data: shown.data?.map(withoutPinnedNulls) } : withoutPinnedNulls(body);
  // a left-out field the vendor also requires is the same pinned difference
  const required = /must have required property '(url|failure_reason|\w+_template(_version)?_id)'/;
  return vendorResponseErrors(method, path, 200, checked).filter((e) => !required.test(e));
};

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

/** A one-page PDF, 6.25 x 4.25 in, written by hand (enough for the type check at create). */
export function tinyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 450 306] >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
