// multipart/form-data: fields become a bracket form, files stream to disk under the request's limits.
// busboy reports through events; a throw inside one would escape every request handler and end the
// process, so each listener runs guarded and any failure settles this request's promise instead.
import type { IncomingMessage } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline, type Readable } from 'node:stream';
import Busboy from 'busboy';
import { ApiError } from '../base/errors';
import { bodyBroken, drain, tooLarge, type BodyLimits } from './body-stream';
import { parseForm } from './form';
import { MAX_VALUES } from '../domain/validation/input-shape';
import { receivedUpload, type UploadRef } from '../catalog/uploads';
import { encodeFormBytes } from './utf8';

/** An uploaded file: on disk for as long as the request lasts (removed by `discardUploads`). */
export type UploadedFile = UploadRef;

const MAX_PARTS = 1000;

/** A byte limit in the unit a person reads it in (a limit set below a megabyte is not "0 MB"). */
const sizeText = (bytes: number) =>
  bytes >= 1_048_576 ? `${Math.floor(bytes / 1_048_576)} MB` : `${Math.floor(bytes / 1024)} KB`;

const malformed = (detail = '') => new ApiError('invalid', `multipart body is malformed${detail}`, 422);

function notAFileField(field: string, allowed: readonly string[]): ApiError {
  if (allowed.length === 0) return new ApiError('invalid', 'this operation does not accept file uploads', 422);
  return new ApiError('invalid', `${field} is not a file field: only ${allowed.join(', ')} may be uploaded`, 422);
}

/**
 * What busboy's own errors mean for the client. Busboy keeps parsing after an error (a later part still
 * arrives), so the first error settles the request and what follows is ignored.
 */
function parserFailure(error: unknown): ApiError {
  const message = error instanceof Error ? error.message : '';
  if (/unexpected end of (form|file)/i.test(message)) {
    return new ApiError('invalid', 'multipart body ended inside a part: it was not received completely', 422);
  }
  if (/header/i.test(message)) return malformed(': a part header is malformed (control characters are not allowed)');
  return malformed();
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
        // field values as their bytes (latin1: one character a byte), read as UTF-8 by parseForm
        // without repair (./utf8.ts); busboy's own UTF-8 decoding would make bad bytes U+FFFD
        defCharset: 'latin1',
      });
    } catch {
      void drain(req).then(() => reject(malformed(': its boundary is missing')));
      return;
    }
    const pairs: string[] = [];
    const files: UploadedFile[] = [];
    const writes: Promise<void>[] = [];
    // file parts still streaming: a failed request ends them, else a part cut short holds its descriptor
    const open = new Set<Readable>();
    let failure: ApiError | undefined;
    let fieldBytes = 0;
    let settled = false;

    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      const failed = error !== undefined || failure !== undefined;
      if (failed) {
        // Stop parsing but keep reading (and dropping) the body, so the client can read the answer;
        // destroying the request would reset its connection.
        req.unpipe(parser);
        for (const stream of open) stream.destroy(new Error('the request failed'));
      }
      const drained = failed ? drain(req) : Promise.resolve();
      Promise.all([Promise.allSettled(writes), drained])
        .then(([written]) => {
          // a file that could not be written to disk fails the request (a server fault, not the client's)
          const unwritten = written.find((w): w is PromiseRejectedResult => w.status === 'rejected');
          if (failed || unwritten) {
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
        if (settled) return;
        if (!name) throw malformed(': every part needs a name');
        fieldBytes += name.length + value.length;
        if (info.valueTruncated || info.nameTruncated || fieldBytes > limits.maxBytes) throw tooLarge(limits.maxBytes);
        pairs.push(`${encodeFormBytes(name)}=${encodeFormBytes(value)}`);
      }),
    );
    parser.on(
      'file',
      guarded((field: string | undefined, stream: Readable, info: Busboy.FileInfo) => {
        // A body that ends inside this part errors its stream ('Unexpected end of form') while the parser
        // reports the same below; a stream nobody pipes (a part refused or dropped) would otherwise throw
        // that error out of every request handler, ending the process.
        stream.on('error', () => undefined);
        if (settled) return void stream.resume();
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
        open.add(stream);
        stream.on('data', (chunk: Buffer) => (file.size += chunk.length));
        stream.on(
          'limit',
          guarded(() => {
            throw new ApiError(
              'file_size_exceeds_limit',
              `${field} must be at most ${sizeText(limits.maxFileBytes)}`,
              422,
            );
          }),
        );
        writes.push(
          new Promise<void>((done, fail) => {
            fs.mkdirSync(limits.uploadDir, { recursive: true });
            pipeline(stream, fs.createWriteStream(file.path, { flags: 'wx', mode: 0o600 }), (error) => {
              open.delete(stream);
              return error ? fail(error) : done();
            });
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
    // A malformed body (a NUL in a part header, a body cut inside a part) is the client's error; it
    // arrives before busboy's 'close', which would otherwise settle the request as if all went well.
    parser.on('error', (error: unknown) => finish(parserFailure(error)));
    parser.on('close', () => finish());
    // A client that goes away mid-stream ends here. `pipe` rather than `pipeline`: a failed parse must
    // not destroy the request, whose socket still carries the answer.
    req.on('error', () => finish(bodyBroken()));
    req.on('aborted', () => finish(bodyBroken()));
    req.pipe(parser);
  });
}

/** Removes a request's upload files; settles once they are gone (a failure to remove is not the client's). */
export async function discardUploads(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((file) => fs.promises.rm(file.path, { force: true }).catch(() => undefined)));
}
