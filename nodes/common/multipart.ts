// multipart/form-data for artwork uploads, shared by both packs: every other body field becomes a form
// field in bracket form (`to[name]`, `merge_variables[name]`), which the engine reads back with qs, and
// each file a part under its field's name. Written out by hand: an n8n community node may have no
// dependencies, and the parts may hold buffers (n8n) or streams (Zapier) alike.
import { randomBytes } from 'node:crypto';

export interface FilePart<T> {
  /** the body field the file is for (`front`) */
  field: string;
  filename: string;
  contentType: string;
  data: T;
}

/** A body as bracket-form pairs: objects `a[b]`, arrays `a[0]`; null and undefined are left out (absent). */
export function formPairs(value: unknown, prefix = ''): [string, string][] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => formPairs(v, `${prefix}[${i}]`));
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => formPairs(v, prefix ? `${prefix}[${k}]` : k));
  return prefix ? [[prefix, String(value)]] : [];
}

/** Quotes in a part's header parameters, escaped as browsers do (WHATWG: `"` CR LF percent-encoded). */
const quoted = (s: string) => `"${s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;

/**
 * The body in order: a header buffer per part, each file's own data, the closing boundary. The caller
 * joins the chunks (Buffer.concat) or streams them.
 */
export function multipartChunks<T>(
  fields: readonly [string, string][],
  files: readonly FilePart<T>[],
): { contentType: string; chunks: (Buffer | T)[] } {
  const boundary = `----printpost${randomBytes(12).toString('hex')}`;
  const chunks: (Buffer | T)[] = [];
  for (const [name, value] of fields)
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`, 'utf8'),
    );
  for (const file of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.filename)}\r\n` +
          `Content-Type: ${file.contentType.replace(/[\r\n]/g, '')}\r\n\r\n`,
        'utf8',
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { contentType: `multipart/form-data; boundary=${boundary}`, chunks };
}
