// Request text decoded as UTF-8 without repair. Node's and qs's decoders turn bytes that are not UTF-8
// into U+FFFD (or leave `%FF` as it was), and the engine then printed "A\uFFFD\uFFFDB" on the mail.
// Here each such byte is kept visible as an unpaired surrogate (U+DC80..U+DCFF, as Python's
// surrogateescape does), which validation refuses in whatever field holds it, by that field's name
// (domain/validation/text.ts): a field can be named only once the body is parsed, and a JSON body's
// structure is still ASCII around a bad byte. Well-formed input takes the native decoder alone.

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** `bytes` as UTF-8; a byte that is not part of a well-formed sequence becomes U+DC80 + byte. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    return escapedDecode(bytes);
  }
}

const continuation = (byte: number | undefined) => byte !== undefined && (byte & 0xc0) === 0x80;

/** The slow path, for input known to hold bytes that are not UTF-8. */
function escapedDecode(bytes: Uint8Array): string {
  const out: string[] = [];
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    const length =
      lead < 0x80
        ? 1
        : lead >= 0xc2 && lead <= 0xdf
          ? 2
          : lead >= 0xe0 && lead <= 0xef
            ? 3
            : lead <= 0xf4 && lead >= 0xf0
              ? 4
              : 0;
    let point = length === 1 ? lead : length ? lead & (0xff >> (length + 1)) : -1;
    for (let k = 1; k < length && point >= 0; k++) {
      point = continuation(bytes[i + k]) ? (point << 6) | (bytes[i + k] & 0x3f) : -1;
    }
    // overlong forms, surrogates and points past U+10FFFF are not UTF-8 either
    const least = [0, 0, 0x80, 0x800, 0x10000][length];
    if (point >= least && point <= 0x10ffff && !(point >= 0xd800 && point <= 0xdfff)) {
      out.push(String.fromCodePoint(point));
      i += length;
    } else {
      out.push(String.fromCharCode(0xdc00 + lead));
      i += 1;
    }
  }
  return out.join('');
}

const HEX = /^[0-9A-Fa-f]{2}$/;

/**
 * One key or value of a form (`a%5Bb%5D=A%FF`), given as bytes read as latin1 (one character a byte):
 * `+` and `%XX` become bytes, and the bytes are read as UTF-8 by decodeUtf8. qs's own decoder leaves an
 * undecodable escape as its text, and URLSearchParams makes it U+FFFD.
 */
export function decodeFormComponent(raw: string): string {
  if (!/[%+\x80-\xff]/.test(raw)) return raw;
  const bytes = new Uint8Array(raw.length);
  let n = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code === 0x25 && HEX.test(raw.slice(i + 1, i + 3))) {
      bytes[n++] = Number.parseInt(raw.slice(i + 1, i + 3), 16);
      i += 2;
    } else bytes[n++] = code === 0x2b ? 0x20 : code & 0xff;
  }
  return decodeUtf8(bytes.subarray(0, n));
}

/** Bytes held as latin1 text (one character a byte) written as a form component, every byte kept. */
export const encodeFormBytes = (latin1: string): string =>
  latin1.replace(/[^A-Za-z0-9\-_.~]/g, (char) => `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`);

/** The pairs of a form body, each name and value decoded as decodeFormComponent does. */
export function formPairs(body: Buffer): [string, string][] {
  const text = body.toString('latin1');
  if (text === '') return [];
  return text.split('&').map((pair) => {
    const at = pair.indexOf('=');
    return at < 0
      ? [decodeFormComponent(pair), '']
      : [decodeFormComponent(pair.slice(0, at)), decodeFormComponent(pair.slice(at + 1))];
  });
}
