// The dashboard's Handlebars views (views/*.hbs): an environment of its own, so its helpers and
// partials never meet the one that merges artwork. Every value is written with `{{…}}`, which escapes
// it; the one triple-stash is the layout's `{{{body}}}`, the page this environment itself rendered.
import fs from 'node:fs';
import path from 'node:path';
import type { HelperOptions } from 'handlebars';
import { handlebars } from '../../base/packages';

type Template = (data: unknown) => string;

/** The folder beside this file, or, from a compiled build (which copies no .hbs), the sources' own. */
export function sourceFolder(name: string): string {
  const local = path.join(__dirname, name);
  if (fs.existsSync(local)) return local;
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'engine', 'faces', 'dashboard', name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`dashboard: folder ${name} not found beside ${__dirname}`);
}

function formatDate(value: unknown): string {
  if (typeof value !== 'string' || !value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return date.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

export class Views {
  private readonly env = handlebars().create();
  private readonly pages = new Map<string, Template>();
  private readonly layout: Template;

  constructor(folder = sourceFolder('views')) {
    const env = this.env;
    env.registerHelper('eq', (a: unknown, b: unknown) => a === b);
    env.registerHelper('date', formatDate);
    env.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null, null, 2));
    env.registerHelper('money', (cents: unknown) =>
      typeof cents === 'number' ? `$${(cents / 100).toFixed(2)}` : String(cents ?? ''),
    );
    // `{{#selected a b}}selected{{/selected}}` in a <select>
    env.registerHelper('selected', function (this: unknown, a: unknown, b: unknown, options: HelperOptions) {
      return a === b ? options.fn(this) : '';
    });
    for (const file of fs.readdirSync(folder)) {
      if (!file.endsWith('.hbs')) continue;
      const name = file.slice(0, -4);
      const source = fs.readFileSync(path.join(folder, file), 'utf8');
      if (name.startsWith('_')) env.registerPartial(name.slice(1), source);
      else this.pages.set(name, env.compile(source, { strict: false }));
    }
    const layout = this.pages.get('layout');
    if (!layout) throw new Error('dashboard: views/layout.hbs is missing');
    this.layout = layout;
  }

  /** The view `view` as a document of its own (it writes its own <html>), without the layout. */
  renderBare(view: string, data: Record<string, unknown>): string {
    const page = this.pages.get(view);
    if (!page) throw new Error(`dashboard: no view ${view}`);
    return page(data);
  }

  /** The page `view` with `data`, inside the layout (which reads `layout`: title, session, nav, ...). */
  render(view: string, data: Record<string, unknown>, layout: Record<string, unknown>): string {
    const page = this.pages.get(view);
    if (!page) throw new Error(`dashboard: no view ${view}`);
    const body = page({ ...layout, ...data });
    return this.layout({ ...layout, body });
  }
}
