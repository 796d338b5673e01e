// Sends fuzz requests over real sockets: through Node's HTTP client, and as raw bytes for malformed HTTP.
import http from 'node:http';
import net from 'node:net';
import type { FuzzRequest } from './arbitraries';

export interface Answer {
  status: number;
  body: unknown;
  /** set when no answer arrived: the connection was reset or closed first */
  failure?: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text.slice(0, 200);
  }
}

export function send(base: string, request: FuzzRequest): Promise<Answer> {
  const url = new URL(request.path.startsWith('/') ? request.path : `/${request.path}`, base);
  return new Promise((resolve) => {
    const req = http.request(url, { method: request.method, headers: request.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: parse(Buffer.concat(chunks).toString('utf8')) }),
      );
      res.on('error', (e) => resolve({ status: res.statusCode ?? 0, body: undefined, failure: e.message }));
    });
    req.on('error', (e) => resolve({ status: 0, body: undefined, failure: e.message }));
    req.end(request.body);
  });
}

/** Writes `text` on a fresh connection and reads whatever comes back within `waitMs`. */
export function sendRaw(base: string, text: string, waitMs = 3000): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(text));
    let received = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(received)?.[1] ?? 0);
      const body = received.includes('\r\n\r\n') ? parse(received.slice(received.indexOf('\r\n\r\n') + 4)) : undefined;
      resolve(
        status
          ? { status, body }
          : { status: 0, body: undefined, failure: `no answer (${JSON.stringify(received.slice(0, 80))})` },
      );
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (d: Buffer) => {
      received += d.toString('latin1');
      // One answer is all we wait for: the headers and a body of the announced length.
      const length = /content-length: (\d+)/i.exec(received);
      const head = received.indexOf('\r\n\r\n');
      if (length && head >= 0 && received.length >= head + 4 + Number(length[1])) done();
    });
    socket.on('close', done);
    socket.on('error', () => undefined);
  });
}

/**
 * Announces `request`'s whole body but writes only its first `at` bytes, then drops the connection: a
 * client gone mid-upload. Settles once the socket is closed; no answer is expected.
 */
export function sendAborted(base: string, request: FuzzRequest, at: number): Promise<void> {
  const url = new URL(base);
  const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body ?? '');
  const head = [
    `${request.method} ${request.path} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${body.length}`,
    '\r\n',
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body.subarray(0, at)]), () =>
        // a moment for the engine to read what was written, so the drop lands mid-body, not before it
        setTimeout(() => socket.destroy(), 20),
      );
    });
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
