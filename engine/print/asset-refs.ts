// Where an HTML artwork names remote resources: a small tokenizer pass over tags, attributes and CSS,
// no HTML parser. Each finding is a range of the text and what should replace it once fetched; the
// patterns have no nested quantifiers, so odd or hostile markup costs linear time, never a hang.

export type AssetKind = 'image' | 'stylesheet' | 'font';

/** An attribute value (quotes included) that is one URL: replaced by the quoted data: URL + `suffix`. */
export interface UrlSlot {
  type: 'url';
  start: number;
  end: number;
  url: string;
  kind: AssetKind;
  /** kept after the URL (a srcset descriptor) */
  suffix: string;
}

/** CSS to rewrite: a <style> element's text, or a style attribute's value (quotes included). */
export interface CssSlot {
  type: 'css';
  start: number;
  end: number;
  css: string;
  attribute: boolean;
}

export type HtmlSlot = UrlSlot | CssSlot;

/** A url(...) or an @import string inside CSS; `start`-`end` is replaced by `prefix`url(<data: URL>). */
export interface CssRef {
  start: number;
  end: number;
  url: string;
  kind: AssetKind;
  prefix: '' | '@import ';
}

// Every construct may run to the end of the text (an unclosed quote, tag or comment ends there), so a
// match never fails after a long scan: no backtracking, linear time on any input.
const ATTRIBUTES = String.raw`((?:[^>=]|=\s*(?:"[^"]*(?:"|$)|'[^']*(?:'|$)|[^\s>]*))*)`;
const RAW_TEXT = 'script|style|textarea|title|xmp|iframe|noembed|noframes';
const TAG = new RegExp(
  String.raw`<!--[\s\S]*?(?:-->|$)|<(${RAW_TEXT})\b${ATTRIBUTES}(?:>([\s\S]*?)(?:<\/\1\s*>|$)|$)|<([a-zA-Z][^\s/>]*)${ATTRIBUTES}(?:>|$)`,
  'gi',
);
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*("[^"]*(?:"|$)|'[^']*(?:'|$)|[^\s>]+))?/g;

// A Map: the name comes from the artwork, and `&constructor;` must not decode to Object's source text.
const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['nbsp', '\u00a0'],
]);

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES.get(name.toLowerCase()) ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

export const escapeAttribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

interface Attribute {
  name: string;
  value: string;
  /** range of the value token in the document, quotes included */
  start: number;
  end: number;
}

function attributesOf(text: string, offset: number): Attribute[] {
  const found: Attribute[] = [];
  for (const match of text.matchAll(ATTRIBUTE)) {
    const token = match[2];
    if (token === undefined) continue;
    const start = offset + match.index + match[0].length - token.length;
    const quote = token[0] === '"' || token[0] === "'" ? token[0] : '';
    const inner = quote ? token.slice(1, token.length > 1 && token.endsWith(quote) ? -1 : undefined) : token;
    const value = decodeEntities(inner).trim();
    found.push({ name: match[1].toLowerCase(), value, start, end: start + token.length });
  }
  return found;
}

/** Which attribute of which element names a resource, and of what kind. */
function resourceAttributes(tag: string, attributes: Attribute[]): [Attribute, AssetKind][] {
  const named = (name: string) => attributes.find((a) => a.name === name);
  const picked: [Attribute | undefined, AssetKind][] = [];
  if (tag === 'img') picked.push([named('src'), 'image'], [named('srcset'), 'image']);
  else if (tag === 'source') picked.push([named('srcset'), 'image']);
  else if (tag === 'image') picked.push([named('href') ?? named('xlink:href'), 'image']);
  else if (tag === 'video') picked.push([named('poster'), 'image']);
  else if (tag === 'input' && named('type')?.value.toLowerCase() === 'image') picked.push([named('src'), 'image']);
  else if (tag === 'link' && /(^|\s)stylesheet(\s|$)/i.test(named('rel')?.value ?? ''))
    picked.push([named('href'), 'stylesheet']);
  if (['body', 'table', 'td', 'th', 'tr'].includes(tag)) picked.push([named('background'), 'image']);
  return picked.filter((p): p is [Attribute, AssetKind] => p[0] !== undefined);
}

/** The first candidate of a srcset: its URL and its descriptor ("2x", "640w"). */
function firstCandidate(srcset: string): { url: string; descriptor: string } {
  const [first] = srcset.split(/,\s+|,(?=\S+\s)/);
  const [url = '', descriptor = ''] = first.trim().split(/\s+/);
  return { url: url.replace(/,$/, ''), descriptor };
}

/** Everything in the document that may name a remote resource. */
export function scanHtml(html: string): HtmlSlot[] {
  const slots: HtmlSlot[] = [];
  for (const match of html.matchAll(TAG)) {
    if (match[1] !== undefined) {
      // a raw-text element: only <style>'s text is ours to read; its attributes may still carry a style
      const attributesAt = match.index + 1 + match[1].length;
      for (const a of attributesOf(match[2], attributesAt)) {
        if (a.name === 'style') slots.push({ type: 'css', start: a.start, end: a.end, css: a.value, attribute: true });
      }
      if (match[1].toLowerCase() === 'style' && match[3]) {
        const start = match.index + 1 + match[1].length + match[2].length + 1;
        slots.push({ type: 'css', start, end: start + match[3].length, css: match[3], attribute: false });
      }
      continue;
    }
    if (match[4] === undefined) continue; // a comment
    const tag = match[4].toLowerCase();
    const attributes = attributesOf(match[5], match.index + 1 + match[4].length);
    for (const [a, kind] of resourceAttributes(tag, attributes)) {
      const { url, descriptor } = a.name === 'srcset' ? firstCandidate(a.value) : { url: a.value, descriptor: '' };
      slots.push({ type: 'url', start: a.start, end: a.end, url, kind, suffix: descriptor ? ` ${descriptor}` : '' });
    }
    const style = attributes.find((a) => a.name === 'style');
    if (style) slots.push({ type: 'css', start: style.start, end: style.end, css: style.value, attribute: true });
  }
  // attributes were picked by meaning, not position: replacements are spliced in document order
  return slots.sort((a, b) => a.start - b.start);
}

// A CSS string ends at its quote or the end of its line; a url( that does not close is skipped whole.
const CSS_TOKEN =
  /\/\*[\s\S]*?(?:\*\/|$)|(@import\s+)?url\(\s*(?:"([^"\n]*)("?)|'([^'\n]*)('?)|([^()"'\s]*)())\s*(\)?)|@import\s+(?:"([^"\n]*)("?)|'([^'\n]*)('?))/gi;

/** url(...) references and @import strings in a piece of CSS; comments skipped. */
export function scanCss(css: string): CssRef[] {
  const refs: CssRef[] = [];
  for (const match of css.matchAll(CSS_TOKEN)) {
    const m = match.map((group) => group ?? '');
    if (m[0].startsWith('/*')) continue;
    const end = match.index + m[0].length;
    if (m[0][0] === '@' && !m[1]) {
      // @import "x": replaced whole, by @import url(...)
      if (m[10] || m[12])
        refs.push({ start: match.index, end, url: (m[9] || m[11]).trim(), kind: 'stylesheet', prefix: '@import ' });
      continue;
    }
    const closed = m[8] === ')' && (m[3] || m[5] || match[7] !== undefined);
    if (!closed) continue;
    const url = (m[2] || m[4] || m[6]).trim();
    // inside a `src:` declaration (of @font-face) it is a font; the kind only names it in failures
    const before = css.slice(Math.max(0, match.index - 300), match.index);
    const kind: AssetKind = m[1] ? 'stylesheet' : /\bsrc\s*:[^;{}]*$/i.test(before) ? 'font' : 'image';
    refs.push({ start: match.index + m[1].length, end, url, kind, prefix: '' });
  }
  return refs;
}
