// Answers for requests Node's own HTTP layer stops before Koa sees them (a broken request line, headers
// past 16 KB, a client too slow to send its request, an Expect header we cannot meet): each still gets
// the spec's JSON error body.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError } from '../base/errors';

function errorFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ApiError('invalid', 'The request line and headers must be at most 16 KB together.', 431);
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'HPE_HEADERS_TIMEOUT') {
    return new ApiError('request_timeout', 'The request was not received in time.', 408);
  }
  return new ApiError('invalid', 'The request is not valid HTTP.', 400);
}

const answered = new WeakSet<Duplex>();

/** The server's `clientError` listener: answer on the socket if nothing was written yet, then close it. */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  // A socket can report several errors while it closes: it is answered once.
  if (answered.has(socket)) return void socket.destroy();
  answered.add(socket);
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
  if (error.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
    const failure = errorFor(error.code);
    const body = JSON.stringify(failure.toBody());
    socket.write(
      `HTTP/1.1 ${failure.status} ${STATUS_CODES[failure.status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  (socket as Socket).destroySoon();
}

/** The server's `checkExpectation` listener: only `100-continue` is understood. */
export function answerExpectation(_req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify(new ApiError('invalid', 'The Expect header may only be 100-continue.', 417).toBody());
  res.writeHead(417, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}
