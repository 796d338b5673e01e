// multipart/form-data: fields become a bracket form, files stream to disk under the request's limits.
// busboy reports through events; a throw inside one would escape every request handler and end the
// process, so each listener runs guarded and any failure settles this request's promise instead.
import type { IncomingMessage } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream';
import Busboy from 'busboy';
import { ApiError } from '../errors';
import { bodyBroken, drain, tooLarge, type BodyLimits } from './body-stream';
import { parseForm } from './form';
import { MAX_VALUES } from './input-shape';
import { receivedUpload, type UploadRef } from '../catalog/uploads';

/** An uploaded file: on disk for as long as the request lasts (removed by `discardUploads`). */
export type UploadedFile = UploadRef;

const MAX_PARTS = 1000;

const malformed = (detail = '') => new ApiError('invalid', `multipart body is malformed${detail}`, 422);

function notAFileField(field: string, allowed: readonly string[]): ApiError {
  if (allowed.length === 0) return new ApiError('invalid', 'this operation does not accept file uploads', 422);
  return new ApiError('invalid', `${field} is not a file field: only ${allowed.join(', ')} may be uploaded`, 422);
}

export function parseMultipart(
  req: IncomingMessage,
  limits: BodyLimits,
): Promise<{ fields: Record<string, unknown>; files: UploadedFile[] }> {
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({
        headers: req.headers,
        limits: {
          fileSize: limits.maxFileBytes,
          fieldSize: limits.maxBytes,
          files: limits.fileFields.length,
          fields: MAX_VALUES,
          parts: MAX_PARTS,
        },
      });
    } catch {
      void drain(req).then(() => reject(malformed(': its boundary is missing')));
      return;
    }
    const pairs: string[] = [];
    const files: UploadedFile[] = [];
    const writes: Promise<void>[] = [];
    let failure: ApiError | undefined;
    let fieldBytes = 0;
    let settled = false;

    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      Promise.allSettled(writes)
        .then((written) => {
          // a file that could not be written to disk fails the request (a server fault, not the client's)
          const unwritten = written.find((w): w is PromiseRejectedResult => w.status === 'rejected');
          if (error !== undefined || failure || unwritten) {
            discardUploads(files);
            return reject(error instanceof ApiError ? error : (failure ?? error ?? unwritten?.reason));
          }
          resolve({ fields: parseForm(pairs.join('&')), files });
        })
        .catch((caught: unknown) => {
          discardUploads(files);
          reject(caught);
        });
    };
    // Every listener goes through this: a throw fails this request, never the process.
    const guarded =
      <A extends unknown[]>(listener: (...args: A) => void) =>
      (...args: A) => {
        try {
          listener(...args);
        } catch (error) {
          failure ??= error instanceof ApiError ? error : malformed();
          if (!(error instanceof ApiError)) finish(error);
        }
      };

    parser.on(
      'field',
      guarded((name: string | undefined, value: string, info: Busboy.FieldInfo) => {
        if (!name) throw malformed(': every part needs a name');
        fieldBytes += name.length + value.length;
        if (info.valueTruncated || info.nameTruncated || fieldBytes > limits.maxBytes) throw tooLarge(limits.maxBytes);
        pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
      }),
    );
    parser.on(
      'file',
      guarded((field: string | undefined, stream: NodeJS.ReadableStream, info: Busboy.FileInfo) => {
        if (!field || !limits.fileFields.includes(field) || failure) {
          stream.resume();
          throw field ? (failure ?? notAFileField(field, limits.fileFields)) : malformed(': every part needs a name');
        }
        const file: UploadedFile = receivedUpload({
          upload: true,
          field,
          filename: info.filename ?? field,
          mimeType: info.mimeType,
          path: path.join(limits.uploadDir, `${randomBytes(12).toString('hex')}.upload`),
          size: 0,
        });
        files.push(file);
        stream.on('data', (chunk: Buffer) => (file.size += chunk.length));
        stream.on(
          'limit',
          guarded(() => {
            throw new ApiError(
              'file_size_exceeds_limit',
              `${field} must be at most ${Math.floor(limits.maxFileBytes / 1_048_576)} MB`,
              422,
            );
          }),
        );
        writes.push(
          new Promise<void>((done, fail) => {
            fs.mkdirSync(limits.uploadDir, { recursive: true });
            pipeline(stream, fs.createWriteStream(file.path, { flags: 'wx', mode: 0o600 }), (error) =>
              error ? fail(error) : done(),
            );
          }),
        );
      }),
    );
    parser.on(
      'filesLimit',
      guarded(() => {
        throw limits.fileFields.length
          ? new ApiError('invalid', `at most one file each may be uploaded, for ${limits.fileFields.join(', ')}`, 422)
          : notAFileField('', []);
      }),
    );
    parser.on(
      'fieldsLimit',
      guarded(() => {
        throw new ApiError('invalid', `multipart body must have at most ${MAX_VALUES} fields`, 413);
      }),
    );
    parser.on(
      'partsLimit',
      guarded(() => {
        throw new ApiError('invalid', `multipart body must have at most ${MAX_PARTS} parts`, 413);
      }),
    );
    parser.on('close', () => finish());
    // A malformed body or a client that goes away mid-stream ends here, as does a parser error.
    pipeline(req, parser, (error) => {
      if (!error) return;
      finish(req.readableAborted || req.errored ? bodyBroken() : malformed());
    });
  });
}

/** Removes a request's uploads from disk (after the request, or when it fails). */
export function discardUploads(files: readonly UploadedFile[]): void {
  for (const file of files) fs.rm(file.path, { force: true }, () => undefined);
}
