// One HTML document to a PDF on a warm page, at exactly the sheet size asked for.
import type { Page } from 'puppeteer-core';
import { RenderFailed } from './errors';

export interface PdfRequest {
  html: string;
  /** sheet size in inches, bleed included */
  widthIn: number;
  heightIn: number;
  timeoutMs: number;
  /** keep at most this many pages (the product's page limit); the rest is trimmed */
  maxPages?: number;
}

/**
 * Chrome keeps the paper size it is given but follows the orientation of a CSS `@page { size }` (it
 * turns the sheet and scales the content), and `page-orientation` rotates it. So the customer's
 * `size`, `page-orientation` and named pages are removed from the document's style sheets before
 * printing: the sheet is ours, margins stay theirs. Runs through the DevTools protocol, which works
 * with the page's JavaScript off (the project's TypeScript has no DOM types: plain JavaScript here).
 */
const DROP_SHEET_SIZE_RULES = `(() => {
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule instanceof CSSPageRule) {
        rule.style.removeProperty('size');
        rule.style.removeProperty('page-orientation');
      } else if (rule.style) {
        rule.style.removeProperty('page');
      }
      if (rule instanceof CSSImportRule && rule.styleSheet) visit(rule.styleSheet);
      if (rule.cssRules) walk(rule.cssRules);
    }
  };
  const visit = (sheet) => {
    try { walk(sheet.cssRules); } catch { /* unreadable: checkSheetSize still guards */ }
  };
  for (const sheet of document.styleSheets) visit(sheet);
  for (const element of document.querySelectorAll('[style]')) element.style.removeProperty('page');
})()`;

const MEDIA_BOX = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/g;

/** Every page's MediaBox must be the sheet: a last check that nothing turned or resized it. */
export function checkSheetSize(pdf: Uint8Array, widthPt: number, heightPt: number): void {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  for (const box of text.matchAll(MEDIA_BOX)) {
    const width = Number(box[3]) - Number(box[1]);
    const height = Number(box[4]) - Number(box[2]);
    if (Math.abs(width - widthPt) > 0.5 || Math.abs(height - heightPt) > 0.5) {
      throw new RenderFailed(`the artwork printed on a ${width}x${height} pt sheet instead of ${widthPt}x${heightPt}`);
    }
  }
}

/**
 * Whether the document could hold a rule DROP_SHEET_SIZE_RULES removes: one needs the word `page` in
 * CSS (`@page`, `page:`), where a backslash could escape it and an inlined style sheet (a data: URL,
 * base64) could hide it. Without any of them the round trip to the page is skipped (about 4 ms of a
 * side's time on a loaded 2-core machine, 15 ms when the browser is busy); checkSheetSize still runs.
 */
export const mayHoldSheetRules = (html: string): boolean => /page|\\|text\/css/i.test(html);

export async function printPdf(page: Page, request: PdfRequest, deadline: number): Promise<Uint8Array> {
  const remaining = () => Math.max(1, deadline - Date.now());
  await page.setContent(request.html, { waitUntil: 'load', timeout: remaining() });
  if (mayHoldSheetRules(request.html)) await page.evaluate(DROP_SHEET_SIZE_RULES);
  const pdf = await page.pdf({
    width: `${request.widthIn}in`,
    height: `${request.heightIn}in`,
    printBackground: true,
    margin: { top: 0, right: 0, bottom: 0, left: 0 },
    preferCSSPageSize: false,
    pageRanges: request.maxPages ? `1-${request.maxPages}` : '',
    tagged: false,
    outline: false,
    timeout: remaining(),
  });
  // navigations are cancelled by the page's request handler; this is the check that one was
  if (page.url() !== 'about:blank') throw new RenderFailed('the artwork navigated away from itself');
  checkSheetSize(pdf, request.widthIn * 72, request.heightIn * 72);
  return pdf;
}
