// Artwork files from Zapier file fields. Zapier hands a file field over as a URL; each given file is
// fetched (without the engine's credentials: see addAuth) and streamed into a multipart/form-data body,
// the file under its field's name and every other field in bracket form.
import { Readable } from 'node:stream';
import type { ZObject } from 'zapier-platform-core';
import { formPairs, multipartChunks, type FilePart } from '../common/multipart';

/** The input field of an upload field's file: `front_upload`. */
export const uploadKey = (field: string) => `${field}_upload`;

/** The upload fields of an operation that the step gave a file for. */
export const givenUploads = (files: readonly string[] | undefined, input: Record<string, unknown>) =>
  (files ?? []).filter((field) => typeof input[uploadKey(field)] === 'string' && input[uploadKey(field)] !== '');

/** `attachment; filename="card.pdf"` -> `card.pdf`; else the URL's last path segment. */
function filenameOf(disposition: string | undefined, url: string, field: string): string {
  const named = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  if (named) return decodeURIComponent(named);
  const last = new URL(url).pathname.split('/').filter(Boolean).pop();
  return last ? decodeURIComponent(last) : field;
}

async function fetchFile(z: ZObject, field: string, url: string): Promise<FilePart<NodeJS.ReadableStream>> {
  if (!/^https?:\/\//i.test(url))
    throw new z.errors.Error(`${uploadKey(field)} must be a file (Zapier passes files as URLs)`, 'invalid_file', 400);
  const response = await z.request({ method: 'GET', url, raw: true, skipThrowForStatus: true });
  if (response.status >= 400)
    throw new z.errors.Error(
      `${uploadKey(field)}: the file could not be fetched (HTTP ${response.status})`,
      'invalid_file_url',
      response.status,
    );
  return {
    field,
    filename: filenameOf(response.getHeader('content-disposition'), url, field),
    contentType: response.getHeader('content-type') || 'application/octet-stream',
    data: response.body,
  };
}

async function* concat(chunks: readonly (Buffer | NodeJS.ReadableStream)[]): AsyncGenerator<Buffer> {
  for (const chunk of chunks) {
    if (Buffer.isBuffer(chunk)) yield chunk;
    else for await (const piece of chunk) yield Buffer.isBuffer(piece) ? piece : Buffer.from(piece);
  }
}

/** The request body for a create with files: each file's download opened first, its bytes streamed as the body goes out. */
export async function multipartBody(
  z: ZObject,
  body: Record<string, unknown>,
  fields: readonly string[],
  input: Record<string, unknown>,
): Promise<{ contentType: string; stream: Readable }> {
  const files: FilePart<NodeJS.ReadableStream>[] = [];
  for (const field of fields) files.push(await fetchFile(z, field, String(input[uploadKey(field)])));
  const rest = Object.fromEntries(Object.entries(body).filter(([k]) => !fields.includes(k)));
  const { contentType, chunks } = multipartChunks(formPairs(rest), files);
  return { contentType, stream: Readable.from(concat(chunks)) };
}
