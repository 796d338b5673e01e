// Hostile multipart uploads on every catalog operation that takes files (postcards, letters, self
// mailers, ...): an otherwise valid create whose artwork side is a hostile file (./hostile-files.ts),
// its part named or its filename written with NUL and control characters, its body cut short inside the
// part's header or inside the file, or the connection dropped mid-body.
import fc from 'fast-check';
import { allOperations } from '../../engine/catalog';
import type { Operation } from '../../engine/catalog/types';
import { check, letter, postcard, selfMailer, snapPack } from '../helpers/mail';
import { HOSTILE_FILES, bytesOf } from './hostile-files';

export const uploadOperations: readonly Operation[] = allOperations()
  .map(({ operation }) => operation)
  .filter((operation) => operation.method === 'POST' && (operation.files?.length ?? 0) > 0);

/**
 * A create each kind takes as it is, so the file is what decides; a kind not named here gets a bare
 * body, refused at validation, which still parses every part first.
 */
export const validBodies = (bankAccount: string): Record<string, Record<string, unknown>> => ({
  '/v1/postcards': postcard(),
  '/v1/letters': letter(),
  '/v1/self_mailers': selfMailer(),
  '/v1/snap_packs': snapPack(),
  '/v1/checks': check(bankAccount),
});

const NAMINGS = {
  'as is': (field: string) => field,
  'NUL inside': (field: string) => `${field.slice(0, 2)}\u0000${field.slice(2)}`,
  'NUL after': (field: string) => `${field}\u0000`,
  'control characters': (field: string) => `${field}\u0001\u001f`,
  'DEL and escape': (field: string) => `\u007f\u001b[2J${field}`,
  'NUL alone': () => '\u0000',
  empty: () => '',
} as const;
type Naming = keyof typeof NAMINGS;

const FILENAMES = [
  'own', // the file's own name
  'a\u0000.pdf',
  '\u0000',
  '\u0001\u0002\u001f.pdf',
  'a\u001b[2J\u007f.pdf',
  'a\r\nX-Injected: 1\r\n.pdf',
  '../../../../etc/passwd',
  '',
  `${'x'.repeat(2000)}.pdf`,
  '😀\ud800.pdf',
  'C:\\art\\front.pdf',
  '%00.pdf',
  'a"b.pdf',
  null, // no filename parameter: the part is a field, not a file
] as const;

const CONTENT_TYPES = [
  'application/pdf',
  'image/png',
  'application/octet-stream',
  'text/html',
  null,
  'application/pdf\u0000',
  'x'.repeat(300),
] as const;

export interface UploadPlan {
  operation: number;
  /** which artwork side gets the file (modulo the operation's sides), unless `everySide` */
  side: number;
  everySide: boolean;
  file: number;
  naming: Naming;
  filename: (typeof FILENAMES)[number];
  contentType: (typeof CONTENT_TYPES)[number];
  /** the file part before the other fields rather than after them */
  fileFirst: boolean;
  /** honest cuts keep Content-Length true to the shortened body; `abort` drops the connection mid-body */
  cut: 'none' | 'header' | 'file' | 'abort';
  /** where the cut falls, as a fraction of the span it falls in */
  at: number;
}

export const uploadPlan: fc.Arbitrary<UploadPlan> = fc.record({
  operation: fc.nat({ max: uploadOperations.length - 1 }),
  side: fc.nat({ max: 7 }),
  everySide: fc.boolean(),
  file: fc.nat({ max: HOSTILE_FILES.length - 1 }),
  naming: fc.oneof(
    { weight: 4, arbitrary: fc.constant<Naming>('as is') },
    fc.constantFrom(...(Object.keys(NAMINGS) as Naming[])),
  ),
  filename: fc.oneof({ weight: 3, arbitrary: fc.constant(FILENAMES[0]) }, fc.constantFrom(...FILENAMES)),
  contentType: fc.constantFrom(...CONTENT_TYPES),
  fileFirst: fc.boolean(),
  cut: fc.oneof(
    { weight: 4, arbitrary: fc.constant<UploadPlan['cut']>('none') },
    fc.constantFrom<UploadPlan['cut']>('header', 'file', 'abort'),
  ),
  at: fc.double({ min: 0, max: 1, noNaN: true }),
});

/** Every file, intact, on every operation's first side: the plans each run begins with. */
export const everyFileOnce: UploadPlan[] = uploadOperations.flatMap((_, operation) =>
  HOSTILE_FILES.map((_file, file) => ({
    operation,
    side: 0,
    everySide: false,
    file,
    naming: 'as is' as const,
    filename: 'own' as const,
    contentType: 'application/pdf' as const,
    fileFirst: false,
    cut: 'none' as const,
    at: 0,
  })),
);

export interface UploadRequest {
  path: string;
  /** the multipart body, already cut short when the cut is honest */
  body: Buffer;
  contentType: string;
  /** write this many bytes of `body`, announced whole, then drop the connection */
  abortAt?: number;
  /** whatever the engine makes of the rest, this request must be a 4xx */
  mustRefuse: boolean;
  label: string;
}

/** The form pairs of a body in bracket notation: `to[name]`, `merge_variables[name]`. */
function pairs(value: unknown, prefix: string): [string, string][] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => pairs(v, prefix ? `${prefix}[${k}]` : k));
  return [[prefix, String(value as string | number | boolean)]];
}

const BOUNDARY = 'fuzzUploadBoundary7MA4YWxkTrZu0gW';
const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** A number in [from, to) at fraction `at`; `from` when the span is empty. */
const within = (from: number, to: number, at: number) => Math.min(to - 1, from + Math.floor(at * (to - from)));

/** The bytes `plan` describes, on `bodies`' valid create of its operation. */
export async function uploadRequest(
  plan: UploadPlan,
  bodies: Record<string, Record<string, unknown>>,
): Promise<UploadRequest> {
  const operation = uploadOperations[plan.operation];
  const sides = operation.files ?? [];
  const file = HOSTILE_FILES[plan.file];
  const bytes = await bytesOf(file);
  const chosen = plan.everySide ? sides : [sides[plan.side % sides.length]];
  const fields: Record<string, unknown> = { ...(bodies[operation.path] ?? {}) };
  for (const side of chosen) delete fields[side];

  const fieldParts = pairs(fields, '').map(([name, value]) =>
    utf8(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  const filename = plan.filename === 'own' ? file.filename : plan.filename;
  const fileParts = chosen.map((side) => {
    const disposition = `form-data; name="${NAMINGS[plan.naming](side)}"${filename === null ? '' : `; filename="${filename}"`}`;
    const type = plan.contentType === null ? '' : `Content-Type: ${plan.contentType}\r\n`;
    return { head: utf8(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), bytes };
  });
  // where the first file part's header and bytes lie, for the cuts
  const before = plan.fileFirst ? [] : fieldParts;
  const headStart = before.reduce((n, b) => n + b.length, 0);
  const bytesStart = headStart + fileParts[0].head.length;
  const body = Buffer.concat([
    ...before,
    ...fileParts.flatMap((p) => [p.head, p.bytes, utf8('\r\n')]),
    ...(plan.fileFirst ? fieldParts : []),
    utf8(`--${BOUNDARY}--\r\n`),
  ]);
  const cutAt =
    plan.cut === 'header'
      ? within(headStart + 1, bytesStart, plan.at)
      : plan.cut === 'file'
        ? within(bytesStart + 1, bytesStart + bytes.length, plan.at)
        : within(1, body.length, plan.at);
  // Busboy makes a part without a filename (or with filename="") a field, whose artwork string is not
  // judged here, and skips a part whose Content-Disposition it cannot parse (an unescaped quote) as if it
  // were not sent: a required side is then missing (a 4xx), an optional one (checks) simply absent (a
  // 200), whatever its name and bytes. A body cut short is refused in every case.
  const skipped = filename !== null && filename.includes('"');
  const isFile = filename !== null && filename !== '';
  const mustRefuse = plan.cut !== 'none' || (!skipped && (plan.naming !== 'as is' || (file.refused && isFile)));
  return {
    path: operation.path,
    body: plan.cut === 'header' || plan.cut === 'file' ? body.subarray(0, cutAt) : body,
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    abortAt: plan.cut === 'abort' ? cutAt : undefined,
    mustRefuse,
    label:
      `POST ${operation.path}: ${file.what} as ${plan.everySide ? 'every side' : chosen[0]}, part named ` +
      `${plan.naming}, filename ${JSON.stringify(filename)}, type ${JSON.stringify(plan.contentType)}, ` +
      `${plan.fileFirst ? 'before' : 'after'} the fields, cut ${plan.cut}${plan.cut === 'none' ? '' : ` at byte ${cutAt}`}`,
  };
}
