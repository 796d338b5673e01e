import { randomBytes } from 'node:crypto';

// Ids are made on every create: draw randomness in blocks rather than one syscall per id.
let pool = Buffer.alloc(0);
let offset = 0;

function random(bytes: number): Buffer {
  if (offset + bytes > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  const out = pool.subarray(offset, offset + bytes);
  offset += bytes;
  return out;
}

/** `adr_3f9c0a1b2c3d4e5f`: the spec's prefix plus 16 random hex characters (26 for snap packs). */
export function newId(prefix: string, length = 16): string {
  return `${prefix}_${random(Math.ceil(length / 2))
    .toString('hex')
    .slice(0, length)}`;
}

/** API keys carry 32 random hex characters after their mode (and `pub_`) prefix. */
export function newKeySecret(): string {
  return randomBytes(16).toString('hex');
}
