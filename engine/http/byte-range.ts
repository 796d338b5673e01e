// An HTTP Range header (RFC 9110 §14) read against a file's size. One range only: a multi-range
// request is answered whole, which the RFC allows, and spares a multipart/byteranges body.
import type { ByteRange } from '../platform/assets/store';

export type RangeAsked = { kind: 'whole' } | { kind: 'part'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

export function rangeAsked(header: string | undefined, size: number): RangeAsked {
  const match = header === undefined ? null : SINGLE.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return { kind: 'whole' };
  if (match[1] === '') {
    // a suffix: the last N bytes
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size) return { kind: 'unsatisfiable' };
  if (end < start) return { kind: 'whole' }; // syntactically invalid: the header is ignored
  return { kind: 'part', range: { start, end } };
}
