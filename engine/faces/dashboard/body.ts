// A form POST's fields (application/x-www-form-urlencoded), read with a small limit: the dashboard's
// forms carry a few short fields; anything else is refused.
import type Koa from 'koa';

const LIMIT = 64 * 1024;

export class BodyRefused extends Error {}

export async function readForm(ctx: Koa.Context): Promise<Record<string, string>> {
  const type = ctx.get('content-type').split(';')[0].trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new BodyRefused('forms only');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buffer.length;
    if (size > LIMIT) throw new BodyRefused('too large');
    chunks.push(buffer);
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/** The query string's values, the first where a name repeats. */
export function singleQuery(ctx: Koa.Context): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(ctx.querystring)) if (!(name in query)) query[name] = value;
  return query;
}
