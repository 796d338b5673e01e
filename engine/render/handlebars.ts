// Template HTML is compiled with Handlebars when a version is made, so a template that cannot render is
// refused at once (invalid_template_html) rather than when a mailpiece uses it.
import Handlebars from 'handlebars';
import { ApiError } from '../errors';

/** Compiles `html` as a Handlebars template; 422 invalid_template_html with the parser's reason if it cannot. */
export function assertTemplateCompiles(html: string): void {
  try {
    Handlebars.precompile(html, { strict: false });
  } catch (error) {
    const reason = String((error as Error).message ?? error).split('\n')[0];
    throw new ApiError('invalid_template_html', `html is not a valid template: ${reason}`, 422);
  }
}
