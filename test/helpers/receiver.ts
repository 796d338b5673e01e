// A webhook receiver on 127.0.0.1 for tests: it records every request (headers, raw body, time) and
// answers as the test says, call by call (a status, a delay, or no answer at all).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Answer {
  status?: number;
  delayMs?: number;
  /** never answer (the sender's timeout ends it) */
  hang?: boolean;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** resolves once `count` requests have arrived (rejects after `timeoutMs`) */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(answer: (call: number) => Answer = () => ({})): Promise<Receiver> {
  const received: Received[] = [];
  const waiting: { count: number; resolve(): void }[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      for (const w of waiting.filter((w) => received.length >= w.count)) w.resolve();
      const { status = 200, delayMs = 0, hang = false } = answer(received.length);
      if (hang) {
        hanging.add(res);
        return;
      }
      setTimeout(() => res.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    waitFor: (count, timeoutMs = 30_000) =>
      new Promise((resolve, reject) => {
        if (received.length >= count) return resolve(received);
        const timer = setTimeout(
          () => reject(new Error(`${received.length} of ${count} deliveries after ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(received);
          },
        });
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
