// Mailpiece test fixtures: inline addresses, a minimal valid create of each kind, a real small PDF,
// a verified bank account, and the vendor-schema check.
import type { client } from './http';
import { vendorResponseErrors } from './vendorSchema';

type Call = ReturnType<typeof client>;

/** The piece (or list of pieces) validated against the vendor's schema, with nothing pinned. */
export const pieceVendorErrors = (method: string, path: string, body: unknown) =>
  vendorResponseErrors(method, path, 200, body);

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

export async function ok(call: Call, method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await call(method, path, json === undefined ? {} : { json });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** A test-mode bank account, verified with the test amounts: checks may be drawn on it. */
export async function verifiedBankAccount(call: Call): Promise<string> {
  const account = await ok(call, 'POST', '/v1/bank_accounts', {
    routing_number: '322271627',
    account_number: '123456789',
    account_type: 'company',
    signatory: 'Jane Doe',
  });
  const verified = await ok(call, 'POST', `/v1/bank_accounts/${String(account.id)}/verify`, { amounts: [11, 35] });
  if (verified.verified !== true) throw new Error(`bank account not verified: ${JSON.stringify(verified)}`);
  return String(account.id);
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

/** Page sizes the artwork checks take: a 4x6 postcard side with bleed, a letter page. */
export const POSTCARD_4X6_IN: [number, number] = [6.25, 4.25];
export const LETTER_IN: [number, number] = [8.5, 11];

/**
 * A one-page PDF saying `text` in Helvetica (a standard font, so not embedded), with a correct
 * cross-reference table; a 4x6 postcard side (bleed included) unless another size in inches is given.
 */
export function minimalPdf(text: string, widthIn = POSTCARD_4X6_IN[0], heightIn = POSTCARD_4X6_IN[1]): Buffer {
  const content = `BT /F1 24 Tf 36 36 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const box = `[0 0 ${widthIn * 72} ${heightIn * 72}]`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox ${box} /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>`,
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}
