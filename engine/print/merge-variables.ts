// The merge variables an artwork's HTML uses, read from its Handlebars syntax tree: what a piece must
// supply when the account's merge variable strictness is strict.
import { handlebars } from '../base/packages';
import { ApiError } from '../base/errors';
import { assertMergeTagLimit } from './handlebars';
import { messageOf } from '../base/thrown';

type Node = hbs.AST.Node;
type Call = hbs.AST.MustacheStatement | hbs.AST.BlockStatement | hbs.AST.SubExpression;

/** Parses the HTML as Handlebars; 422 invalid_template_html naming the field when it cannot (or has too many tags). */
function parse(html: string, field: string): hbs.AST.Program {
  assertMergeTagLimit(html, field);
  try {
    return handlebars().parse(html);
  } catch (error) {
    const reason = messageOf(error).split('\n')[0];
    throw new ApiError('invalid_template_html', `${field} is not a valid template: ${reason}`, 422);
  }
}

/**
 * The names each recent artwork reads: pieces of a campaign or a workflow send the same HTML again and
 * again, and parsing it took about 55 µs of a postcard create. Bounded by entries and characters.
 */
const namesOf = new Map<string, ReadonlySet<string>>();
const CACHED_ENTRIES = 256;
const CACHED_CHARS = 4_000_000;
let cachedChars = 0;

/** Names of the piece's variables the HTML reads (`{{name}}`, `{{#if vip}}`, `{{user.city}}` -> user). */
export function usedVariables(html: string, field: string): ReadonlySet<string> {
  const cached = namesOf.get(html);
  if (cached) return cached;
  const names = readVariables(html, field);
  if (html.length <= CACHED_CHARS / 16) {
    while (namesOf.size >= CACHED_ENTRIES || (namesOf.size > 0 && cachedChars + html.length > CACHED_CHARS)) {
      const oldest = namesOf.keys().next().value as string;
      namesOf.delete(oldest);
      cachedChars -= oldest.length;
    }
    namesOf.set(html, names);
    cachedChars += html.length;
  }
  return names;
}

function readVariables(html: string, field: string): ReadonlySet<string> {
  const names = new Set<string>();
  const helpers = new Set(Object.keys(handlebars().helpers));
  const read = (node: Node) => {
    if (node.type === 'SubExpression') return visit(node, true);
    const path = node as hbs.AST.PathExpression;
    if (path.type !== 'PathExpression' || path.data || path.depth > 0 || path.parts.length === 0) return;
    if (/^(this|\.)/.test(path.original)) return;
    names.add(path.parts[0]);
  };
  const visit = (node: Node | null | undefined, top: boolean): void => {
    if (!node) return;
    if (node.type === 'Program') {
      for (const statement of (node as hbs.AST.Program).body) visit(statement, top);
      return;
    }
    if (node.type !== 'MustacheStatement' && node.type !== 'BlockStatement' && node.type !== 'SubExpression') return;
    const call = node as Call;
    const head = call.path as hbs.AST.PathExpression;
    const helper = call.params.length > 0 || helpers.has(head.original);
    if (top) {
      if (!helper) read(head);
      for (const param of call.params) read(param);
    }
    if (node.type === 'BlockStatement') {
      // inside each/with the context changes: names there are the item's, not the piece's
      const changesContext = head.original === 'each' || head.original === 'with';
      const block = node as hbs.AST.BlockStatement;
      visit(block.program, top && !changesContext);
      visit(block.inverse, top);
    }
  };
  visit(parse(html, field), true);
  return names;
}
