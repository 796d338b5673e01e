// Reading a request body under its limits: the bytes of a JSON or form body, and draining what we refuse.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../base/errors';

export interface BodyLimits {
  /** JSON and form bodies, and all multipart fields together */
  maxBytes: number;
  /** each uploaded file */
  maxFileBytes: number;
  /** the body fields that may carry a file (the operation's `files`); none means no uploads */
  fileFields: readonly string[];
  /** where uploads are written while the request lasts */
  uploadDir: string;
}

/** An oversize body is read and dropped up to this much, so the client can read its 413 before we close. */
const DRAIN_LIMIT = 64 * 1_048_576;

export const tooLarge = (limit: number) =>
  new ApiError('invalid', `request body must be at most ${Math.floor(limit / 1024)} KB`, 413);

/** The client went away or broke the stream mid-body: the answer will likely not be read, but it is a 4xx. */
export const bodyBroken = () => new ApiError('invalid', 'the request body was not received completely', 400);

/** The bytes of a JSON or form body; 413 past `limit`. */
export async function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) {
    await drain(req);
    throw tooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Past the limit keep reading but drop the bytes, so the client still gets its 413 rather than a
    // reset connection; past the drain limit stop reading (the connection is then closed).
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else if (size > DRAIN_LIMIT) break;
    }
  } catch {
    throw bodyBroken();
  }
  if (size > limit) throw tooLarge(limit);
  return Buffer.concat(chunks);
}

/**
 * Reads and drops the rest of a body we refuse. A client still writing when the server closes gets a
 * TCP reset, which can discard the answer it was about to read; draining lets it read the 413.
 */
export async function drain(req: IncomingMessage): Promise<void> {
  if (Number(req.headers['content-length'] ?? 0) > DRAIN_LIMIT) return;
  let size = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > DRAIN_LIMIT) return;
    }
  } catch {
    // the client is gone: nothing left to drain
  }
}
