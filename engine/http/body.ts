// Request bodies: JSON, form-urlencoded with bracket nesting (`to[name]=…`), and multipart with files.
import type { IncomingMessage } from 'node:http';
import qs from 'qs';
import Busboy from 'busboy';
import { ApiError } from '../errors';

export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface ParsedBody {
  fields: Record<string, unknown>;
  files: UploadedFile[];
}

export interface BodyLimits {
  /** JSON and form bodies, and all multipart fields together */
  maxBytes: number;
  /** each uploaded file */
  maxFileBytes: number;
  /** the body fields that may carry a file (the operation's `files`); none means no uploads */
  fileFields: readonly string[];
}

const QS_OPTIONS = { depth: 5, arrayLimit: 100, parameterLimit: 2000, allowPrototypes: false } as const;

const tooLarge = (limit: number) =>
  new ApiError('invalid', `request body must be at most ${Math.floor(limit / 1024)} KB`, 413);

export async function parseBody(req: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return { fields: {}, files: [] };
  if (type.startsWith('multipart/form-data')) return parseMultipart(req, limits);
  const raw = (await readRaw(req, limits.maxBytes)).toString('utf8');
  if (type.startsWith('application/json') || type.includes('+json')) return { fields: parseJson(raw), files: [] };
  if (type.startsWith('application/x-www-form-urlencoded') || type === '') {
    return { fields: qs.parse(raw, QS_OPTIONS) as Record<string, unknown>, files: [] };
  }
  throw new ApiError('invalid', 'Content-Type must be application/json, application/x-www-form-urlencoded or multipart/form-data', 422);
}

function parseJson(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid', 'request body is not valid JSON', 422);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ApiError('invalid', 'request body must be a JSON object', 422);
  return value as Record<string, unknown>;
}

async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    req.resume();
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Past the limit keep reading but drop the bytes, so the client still gets its 413 rather
  // than a reset connection.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw tooLarge(limit);
  return Buffer.concat(chunks);
}

function parseMultipart(req: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({ headers: req.headers, limits: { fileSize: limits.maxFileBytes, fieldSize: limits.maxBytes, files: limits.fileFields.length, fields: 1000 } });
    } catch {
      reject(new ApiError('invalid', 'multipart body is malformed', 422));
      return;
    }
    const pairs: string[] = [];
    const files: UploadedFile[] = [];
    let failure: ApiError | undefined;
    let fieldBytes = 0;
    parser.on('field', (name, value, info) => {
      fieldBytes += name.length + value.length;
      if (info.valueTruncated || fieldBytes > limits.maxBytes) failure ??= tooLarge(limits.maxBytes);
      else pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
    });
    parser.on('filesLimit', () => {
      failure ??= new ApiError('invalid', limits.fileFields.length ? `only ${limits.fileFields.join(', ')} may be uploaded as files` : 'this operation does not accept file uploads', 422);
    });
    parser.on('file', (field, stream, info) => {
      if (!limits.fileFields.includes(field)) {
        failure ??= new ApiError('invalid', limits.fileFields.length ? `${field} is not a file field: only ${limits.fileFields.join(', ')} may be uploaded` : 'this operation does not accept file uploads', 422);
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure ??= new ApiError('file_size_exceeds_limit', `${field} must be at most ${Math.floor(limits.maxFileBytes / 1_048_576)} MB`, 422);
      });
      stream.on('end', () => files.push({ field, filename: info.filename ?? field, mimeType: info.mimeType, data: Buffer.concat(chunks) }));
    });
    parser.on('error', () => reject(new ApiError('invalid', 'multipart body is malformed', 422)));
    parser.on('close', () => {
      if (failure) return reject(failure);
      const fields = qs.parse(pairs.join('&'), QS_OPTIONS) as Record<string, unknown>;
      resolve({ fields, files });
    });
    req.pipe(parser);
  });
}
