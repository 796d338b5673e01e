// Request bodies: JSON, form-urlencoded with bracket nesting (`to[name]=…`), and multipart with files.
// Every failure is an ApiError: nothing a client sends reaches a 500. Text is decoded without repair
// (./utf8.ts): bytes that are not UTF-8 reach validation, which refuses the field holding them.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../base/errors';
import { drain, readRaw, type BodyLimits } from './body-stream';
import { parseForm } from './form';
import { parseMultipart, type UploadedFile } from './multipart';
import { assertSaneInput } from '../domain/validation/input-shape';
import { isPlainObject } from '../base/records';
import { decodeUtf8 } from './utf8';

export interface ParsedBody {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

export async function parseBody(req: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return { fields: {}, files: [] };
  let parsed: ParsedBody;
  if (type.startsWith('multipart/form-data')) {
    parsed = await parseMultipart(req, limits);
  } else if (type.startsWith('application/json') || type.includes('+json')) {
    parsed = { fields: parseJson(decodeUtf8(await readRaw(req, limits.maxBytes))), files: [] };
  } else if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
    // the bytes as they came (latin1: one character a byte); parseForm decodes each component as UTF-8
    parsed = { fields: parseForm((await readRaw(req, limits.maxBytes)).toString('latin1')), files: [] };
  } else {
    await drain(req);
    throw new ApiError(
      'invalid',
      'Content-Type must be application/json, application/x-www-form-urlencoded or multipart/form-data',
      422,
    );
  }
  assertSaneInput(parsed.fields, 'body');
  return parsed;
}

function parseJson(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid', 'request body is not valid JSON', 422);
  }
  if (!isPlainObject(value)) {
    throw new ApiError('invalid', 'request body must be a JSON object', 422);
  }
  return value;
}
