// A form POST's fields (application/x-www-form-urlencoded), read with a small limit: the dashboard's
// forms carry a few short fields; anything else is refused. A page that takes a file (an audience CSV)
// reads multipart/form-data with the API's own parser and file limit, its files on disk meanwhile.
import os from 'node:os';
import path from 'node:path';
import type Koa from 'koa';
import { ApiError } from '../../base/errors';
import { parseMultipart, type UploadedFile } from '../../http/multipart';
import { formPairs } from '../../http/utf8';
import type { EngineConfig } from '../../platform/config';

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
  // decoded without repair (http/utf8.ts): bytes that are not UTF-8 reach validation, which names the field
  for (const [name, value] of formPairs(Buffer.concat(chunks))) {
    if (!(name in fields)) fields[name] = value;
  }
  return fields;
}

/** A refused multipart body, with the parser's reason (a file too large, a body cut short). */
export class UploadRefused extends Error {
  constructor(readonly reason: ApiError) {
    super(reason.message);
  }
}

/** A multipart form: its text fields (the first of each name) and its files under `fileFields`. */
export async function readMultipartForm(
  ctx: Koa.Context,
  config: EngineConfig,
  fileFields: readonly string[],
): Promise<{ form: Record<string, string>; files: UploadedFile[] }> {
  const type = ctx.get('content-type').split(';')[0].trim().toLowerCase();
  if (type !== 'multipart/form-data') throw new BodyRefused('multipart forms only');
  try {
    const parsed = await parseMultipart(ctx.req, {
      maxBytes: LIMIT,
      maxFileBytes: config.maxFileBytes,
      fileFields,
      uploadDir: config.uploadDir ?? path.join(os.tmpdir(), 'printpost-uploads'),
    });
    const form: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed.fields)) if (typeof value === 'string') form[name] = value;
    return { form, files: parsed.files };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) throw new UploadRefused(error);
    throw error;
  }
}

/** The query string's values, the first where a name repeats. */
export function singleQuery(ctx: Koa.Context): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(ctx.querystring)) if (!(name in query)) query[name] = value;
  return query;
}
