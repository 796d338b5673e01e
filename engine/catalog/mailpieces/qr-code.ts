// The QR code a postcard, self mailer or letter may carry (spec: qr_code; the vendor's schema gives the
// field list): a square of `width` inches placed by one vertical and one horizontal offset from the
// page's edges, on the pages named in `pages`, encoding `redirect_url` after its merge variables are
// filled. Declared once here: the schema, the rules a schema cannot say, and the reading of `pages`
// that the renderer uses too.
import { Type, type Static } from '@sinclair/typebox';
import type { QrPages, Rule } from '../types';

const MIN_WIDTH = 1;
const offset = (edge: string, other: string) =>
  Type.Optional(
    Type.Number({ minimum: 0, maximum: 20, description: `inches from the ${edge} edge; not with \`${other}\`` }),
  );
const color = (what: string) =>
  Type.String({ pattern: '^#[A-Fa-f0-9]{6}$', errorMessage: 'must be a hex color such as #000000', description: what });

function pagesText(pages: QrPages): string {
  if (pages === 'numbers') return 'page numbers and ranges, comma separated ("1", "1,3-5"); default "1"';
  const [first, second] = pages.sides;
  return `"${first}", "${second}" or "${first},${second}"; default "${first}"`;
}

export const qrCode = (pages: QrPages) =>
  Type.Object(
    {
      position: Type.Literal('relative', {
        description: 'Value is `relative`: placed by top or bottom, and left or right.',
      }),
      redirect_url: Type.String({
        minLength: 1,
        maxLength: 2048,
        description:
          'The URL the code opens: an http(s) URL, which may hold merge variables ({{name}}) filled from merge_variables.',
      }),
      width: Type.Number({
        minimum: MIN_WIDTH,
        maximum: 20,
        description: 'Side of the square code, in inches (at least 1).',
      }),
      top: offset('top', 'bottom'),
      bottom: offset('bottom', 'top'),
      left: offset('left', 'right'),
      right: offset('right', 'left'),
      pages: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: `The pages it is printed on: ${pagesText(pages)}.` }),
      ),
      style: Type.Optional(
        Type.Object(
          {
            background_color: Type.Optional(color('Background of the code (default #FFFFFF).')),
            foreground_color: Type.Optional(color('Modules of the code (default #000000).')),
          },
          { additionalProperties: false },
        ),
      ),
    },
    {
      additionalProperties: false,
      description: 'A QR code printed on the piece: position relative, redirect_url, width and offsets in inches.',
      examples: [
        {
          position: 'relative',
          redirect_url: 'https://example.com',
          width: 2,
          top: 1,
          right: 1,
          pages: pagesExample(pages),
        },
      ],
    },
  );

function pagesExample(pages: QrPages): string {
  return pages === 'numbers' ? '1' : pages.sides[0];
}

export type QrCode = Static<ReturnType<typeof qrCode>>;

const RANGE = /^(\d{1,4})(?:-(\d{1,4}))?$/;

/**
 * The pages `value` names, or a reason it names none: side names of the kind, or 1-based page numbers
 * (ranges expanded, in order, each once).
 */
export function qrPagesOf(
  value: string | undefined,
  pages: QrPages,
): { pages: (string | number)[] } | { error: string } {
  const parts = (value ?? pagesExample(pages)).split(',').map((p) => p.trim());
  const found: (string | number)[] = [];
  for (const part of parts) {
    if (pages !== 'numbers') {
      if (!pages.sides.includes(part)) return { error: `"${part}" is not a side; use ${pagesText(pages)}` };
      if (!found.includes(part)) found.push(part);
      continue;
    }
    const range = RANGE.exec(part);
    const from = range ? Number(range[1]) : 0;
    const to = range?.[2] ? Number(range[2]) : from;
    if (!range || from < 1 || to < from)
      return { error: `"${part}" is not a page number or range; use ${pagesText(pages)}` };
    for (let page = from; page <= to; page++) if (!found.includes(page)) found.push(page);
  }
  return { pages: found };
}

const MERGE_TAG = /\{\{\s*([^{}\s]+)\s*\}\}/g;

/**
 * `redirect_url` with its merge variables filled: a variable that has no value is left as written (as
 * the vendor does); a value inside a longer URL is percent-encoded, a URL that is one variable is taken
 * as the value says.
 */
export function qrTarget(template: string, variables: Record<string, unknown> | null | undefined): string {
  const whole = /^\{\{\s*[^{}\s]+\s*\}\}$/.test(template.trim());
  return template.replace(MERGE_TAG, (tag, path: string) => {
    let value: unknown = variables ?? undefined;
    for (const key of path.split('.')) {
      value =
        typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? Reflect.get(value, key) : undefined;
    }
    if (value === undefined || value === null || typeof value === 'object') return tag;
    return whole ? String(value).trim() : encodeURIComponent(String(value));
  });
}

/** One of top/bottom and one of left/right; pages the kind has; an http(s) URL unless merge variables make it. */
export const qrCodeRule =
  (pages: QrPages): Rule =>
  (body, at) => {
    const qr = body.qr_code as QrCode | undefined | null;
    if (qr === undefined || qr === null) return undefined;
    const field = at('qr_code');
    const has = (key: 'top' | 'bottom' | 'left' | 'right') => qr[key] !== undefined && qr[key] !== null;
    if (has('top') === has('bottom')) return { message: `${field} must have exactly one of top and bottom` };
    if (has('left') === has('right')) return { message: `${field} must have exactly one of left and right` };
    const named = qrPagesOf(qr.pages, pages);
    if ('error' in named) return { message: `${field}.pages: ${named.error}` };
    if (!qr.redirect_url.includes('{{') && !/^https?:\/\/[^\s/?#]+/i.test(qr.redirect_url))
      return { message: `${field}.redirect_url must be an http(s) URL or hold merge variables` };
    return undefined;
  };
