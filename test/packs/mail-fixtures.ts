// What the packs' mailpiece tests need from the engine and the world: inline addresses, a real small
// PDF, and the objects a piece may name (a template, a verified bank account), made over HTTP.
import type { client } from '../helpers/http';
import { FROM, TO, ok } from '../helpers/mail';

export { FROM, LETTER_IN, POSTCARD_4X6_IN, TO, minimalPdf, verifiedBankAccount } from '../helpers/mail';

type Call = ReturnType<typeof client>;

/** A handlebars template; its id stands for artwork. */
export const createTemplate = async (call: Call, html: string) =>
  String((await ok(call, 'POST', '/v1/templates', { html, engine: 'handlebars' })).id);

/** A saved address's id. */
export const createAddress = async (call: Call, address: Record<string, unknown> = TO) =>
  String((await ok(call, 'POST', '/v1/addresses', address)).id);

/** Creates `count` postcards over HTTP, `extra` merged into each body. */
export async function createPostcards(call: Call, count: number, extra: Record<string, unknown>): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const body = { to: TO, from: FROM, front: '<h1>Front</h1>', back: '<p>Back</p>', use_type: 'marketing', ...extra };
    ids.push(String((await ok(call, 'POST', '/v1/postcards', body)).id));
  }
  return ids;
}
