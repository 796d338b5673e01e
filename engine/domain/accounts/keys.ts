// API keys: shown once, stored as SHA-256 (they are long random secrets, so a slow hash buys nothing),
// compared in constant time.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Mode } from '../../catalog/types';
import { newKeySecret } from '../../base/ids';

export type KeyKind = 'secret' | 'publishable';

export interface KeyShape {
  mode: Mode;
  kind: KeyKind;
}

const KEY_FORMAT = /^(test|live)_(pub_)?[0-9a-f]{32}$/;

export const hashKey = (key: string): string => createHash('sha256').update(key).digest('hex');

export function makeKey(mode: Mode, kind: KeyKind): string {
  return `${mode}_${kind === 'publishable' ? 'pub_' : ''}${newKeySecret()}`;
}

/** Reads mode and kind from a key's prefix; undefined for anything malformed. */
export function keyShape(key: string): KeyShape | undefined {
  const match = KEY_FORMAT.exec(key);
  if (!match) return undefined;
  return { mode: match[1] as Mode, kind: match[2] ? 'publishable' : 'secret' };
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `test_…4f2a`: enough to tell keys apart in listings without revealing them. */
export const keyHint = (key: string): string => `${key.slice(0, key.indexOf('_', 5) > 0 ? 9 : 5)}…${key.slice(-4)}`;
