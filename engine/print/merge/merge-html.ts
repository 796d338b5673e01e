// Handlebars merge of artwork HTML, as a worker thread runs it (merge-thread.ts): compiled templates
// are kept by key (a template version's id), so a campaign's thousand pieces compile it once.
import { handlebars } from '../../base/packages';

const compiled = new Map<string, HandlebarsTemplateDelegate>();
const COMPILED_LIMIT = 500;

/**
 * `html` with `variables` merged in; missing ones are empty (strict accounts were refused at create).
 * `text` merges plain text that is drawn, not parsed as HTML (a check's message): nothing is escaped.
 */
export function mergeHtml(html: string, variables: Record<string, unknown>, cacheKey?: string, text = false): string {
  // a large file without a single variable is not worth parsing
  if (!html.includes('{{')) return html;
  let template = cacheKey ? compiled.get(cacheKey) : undefined;
  if (!template) {
    template = handlebars().compile(html, { strict: false, noEscape: text });
    if (cacheKey) {
      if (compiled.size >= COMPILED_LIMIT) compiled.delete(compiled.keys().next().value!);
      compiled.set(cacheKey, template);
    }
  }
  return template(variables, { allowProtoPropertiesByDefault: false });
}
