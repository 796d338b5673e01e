// Waiting for a piece to render through a real engine, and fetching what its signed links point at.
import type { client } from '../helpers/http';

type Call = ReturnType<typeof client>;

export type Piece = Record<string, unknown> & {
  id: string;
  status: string;
  url: string | null;
  thumbnails: Record<string, string>[];
  failure_reason: { failure_reason: string; remediation: string } | null;
};

/**
 * Polls the piece until it leaves `processed` and, when rendered, until its thumbnails (the second
 * step) are recorded too, unless `pdfOnly`; its state then.
 */
export async function settled(
  call: Call,
  path: string,
  id: string,
  timeoutMs = 60_000,
  pdfOnly = false,
): Promise<Piece> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reply = await call<Piece>('GET', `${path}/${id}`);
    if (reply.status !== 200) throw new Error(`GET ${path}/${id}: ${reply.status} ${JSON.stringify(reply.body)}`);
    const { status, thumbnails } = reply.body;
    if (status !== 'processed' && (pdfOnly || status !== 'rendered' || thumbnails.length > 0)) return reply.body;
    if (Date.now() > deadline) throw new Error(`${id} still processed after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function download(url: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const response = await fetch(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

export async function create(call: Call, path: string, body: unknown): Promise<Piece> {
  const reply = await call<Piece>('POST', path, { json: body });
  if (reply.status !== 200) throw new Error(`POST ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width of a PNG from its IHDR chunk. */
export const pngWidth = (png: Buffer): number => png.readUInt32BE(16);
