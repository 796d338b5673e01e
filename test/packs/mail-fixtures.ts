// What the packs' mailpiece tests need from the engine and the world: inline addresses, a real small
// PDF, and the objects a piece may name (a template, a verified bank account), made over HTTP.
import type { client } from '../helpers/http';

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

/** A one-page 6x4 in PDF saying `text`, with a correct cross-reference table. */
export function minimalPdf(text: string): Buffer {
  const content = `BT /F1 24 Tf 72 144 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 432 288] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
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

type Call = ReturnType<typeof client>;

async function ok(call: Call, method: string, path: string, json?: unknown): Promise<Record<string, unknown>> {
  const res = await call(method, path, json === undefined ? {} : { json });
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as Record<string, unknown>;
}

/** A handlebars template; its id stands for artwork. */
export const createTemplate = async (call: Call, html: string) =>
  String((await ok(call, 'POST', '/v1/templates', { html, engine: 'handlebars' })).id);

/** A saved address's id. */
export const createAddress = async (call: Call, address: Record<string, unknown> = TO) =>
  String((await ok(call, 'POST', '/v1/addresses', address)).id);

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

/** Creates `count` postcards over HTTP, `extra` merged into each body. */
export async function createPostcards(call: Call, count: number, extra: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = { to: TO, from: FROM, front: '<h1>Front</h1>', back: '<p>Back</p>', use_type: 'marketing', ...extra };
    ids.push(String((await ok(call, 'POST', '/v1/postcards', body)).id));
  }
  return ids;
}
