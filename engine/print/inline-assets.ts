// Before an HTML artwork is rendered, the engine fetches every remote resource it names (images,
// stylesheets, fonts: behind the SSRF guard, within size and time limits) and writes them into the
// document as data: URLs. The browser then needs no network at all (it refuses every other request).
import { FetchRefused, guardedFetch, type FetchRefusal, type Fetched } from '../platform/net/guarded-fetch';
import { escapeAttribute, scanCss, scanHtml, type AssetKind, type HtmlSlot } from './asset-refs';
import { messageOf } from '../base/thrown';

/** All fetches of one artwork, unless told otherwise: the render job's lease allows for it. */
export const TOTAL_FETCH_MS = 40_000;

export interface InlineOptions {
  /** CIDRs of private networks assets may come from (ALLOWED_PRIVATE_NETWORKS) */
  allowedNetworks: ReadonlySet<string> | readonly string[];
  /** all assets of one artwork together (spec: 5 MB) */
  maxTotalBytes?: number;
  /** one fetch */
  fetchTimeoutMs?: number;
  /** all of them */
  totalTimeoutMs?: number;
  /** fetches at once */
  concurrency?: number;
}

export interface AssetFailure {
  url: string;
  kind: AssetKind;
  reason: FetchRefusal;
  message: string;
}

export interface Inlined {
  html: string;
  /** empty when every asset was inlined; else the piece should fail (see describeAssetFailure) */
  failures: AssetFailure[];
  /** distinct URLs fetched, and their bytes */
  fetched: number;
  bytes: number;
}

const REFUSALS: Record<FetchRefusal, string> = {
  bad_url: 'not a fetchable URL',
  private_network: 'refused: private network',
  too_large: 'too large',
  timeout: 'timed out',
  http_status: 'error status',
  network: 'network error',
};

/** "an image the artwork names could not be fetched: https://x/y.png (refused: private network)" */
export function describeAssetFailure(failure: AssetFailure): string {
  return `${failure.kind === 'image' ? 'an' : 'a'} ${failure.kind} the artwork names could not be fetched: ${failure.url} (${REFUSALS[failure.reason]})`;
}

const isRemote = (url: string) => /^https?:\/\//i.test(url);

function mediaType(fetched: Fetched, kind: AssetKind): string {
  if (kind === 'stylesheet') return 'text/css;charset=utf-8';
  const declared = fetched.contentType?.split(';')[0].trim().toLowerCase();
  if (declared && /^(image|font)\/[\w.+-]+$/.test(declared)) return declared;
  const head = fetched.bytes.subarray(0, 512).toString('latin1');
  if (head.startsWith('\x89PNG')) return 'image/png';
  if (head.startsWith('\xff\xd8\xff')) return 'image/jpeg';
  if (head.startsWith('GIF8')) return 'image/gif';
  if (head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP') return 'image/webp';
  if (/<svg[\s>]/i.test(head)) return 'image/svg+xml';
  if (head.startsWith('wOF2')) return 'font/woff2';
  if (head.startsWith('wOFF')) return 'font/woff';
  return declared && /^[\w.+-]+\/[\w.+-]+$/.test(declared) ? declared : 'application/octet-stream';
}

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

/** One artwork's fetches: deduplicated, a few at a time, within one byte budget and one deadline. */
class AssetFetcher {
  readonly failures: AssetFailure[] = [];
  bytes = 0;
  private readonly seen = new Map<string, Promise<string | undefined>>();
  private readonly queue: (() => void)[] = [];
  private running = 0;
  private readonly deadline: number;
  private readonly maxBytes: number;

  constructor(private readonly options: InlineOptions) {
    this.deadline = Date.now() + (options.totalTimeoutMs ?? TOTAL_FETCH_MS);
    this.maxBytes = options.maxTotalBytes ?? 5 * 1024 * 1024;
  }

  get fetched(): number {
    return this.seen.size;
  }

  /** The resource as a data: URL, or undefined when it failed (the failure is recorded). */
  dataUrl(url: string, kind: AssetKind, depth: number): Promise<string | undefined> {
    const key = `${kind === 'stylesheet' ? depth : 'asset'} ${url}`;
    let pending = this.seen.get(key);
    if (!pending) {
      pending = this.fetchOne(url, kind, depth);
      this.seen.set(key, pending);
    }
    return pending;
  }

  private async fetchOne(url: string, kind: AssetKind, depth: number): Promise<string | undefined> {
    const fetched = await this.limited(() => this.download(url, kind));
    if (!fetched) return undefined;
    if (kind !== 'stylesheet') return dataUrl(mediaType(fetched, kind), fetched.bytes);
    // A linked stylesheet's own references are fetched too (relative to it), one level deep, once its
    // slot is given back: stylesheets holding every slot while their url()s wait for one never finish.
    const css =
      depth === 0
        ? await this.inlineCss(fetched.bytes.toString('utf8'), fetched.finalUrl, 1)
        : fetched.bytes.toString('utf8');
    return dataUrl(mediaType(fetched, kind), Buffer.from(css, 'utf8'));
  }

  /** One fetch within what is left of the time and byte budgets; undefined when it failed (recorded). */
  private async download(url: string, kind: AssetKind): Promise<Fetched | undefined> {
    if (this.failures.length > 0) return undefined; // the piece fails anyway: fetch no more
    const timeLeft = this.deadline - Date.now();
    const bytesLeft = this.maxBytes - this.bytes;
    const fail = (reason: FetchRefusal, message: string) => {
      this.failures.push({ url, kind, reason, message });
      return undefined;
    };
    if (timeLeft <= 0) return fail('timeout', 'the assets of the artwork took too long to fetch in all');
    if (bytesLeft <= 0) return fail('too_large', `the assets of the artwork pass ${this.maxBytes} bytes in all`);
    let fetched: Fetched;
    try {
      fetched = await guardedFetch(url, {
        maxBytes: bytesLeft,
        timeoutMs: Math.min(this.options.fetchTimeoutMs ?? 10_000, timeLeft),
        allowedNetworks: this.options.allowedNetworks,
      });
    } catch (error) {
      if (error instanceof FetchRefused) return fail(error.reason, error.message);
      return fail('network', messageOf(error));
    }
    this.bytes += fetched.bytes.length;
    if (this.bytes > this.maxBytes)
      return fail('too_large', `the assets of the artwork pass ${this.maxBytes} bytes in all`);
    return fetched;
  }

  /** The CSS with every remote url() and @import replaced by a data: URL (failures left as they were). */
  async inlineCss(css: string, base: string | undefined, depth: number): Promise<string> {
    const refs = scanCss(css).flatMap((ref) => {
      const url = resolve(ref.url, base);
      return url ? [{ ...ref, url }] : [];
    });
    const replaced = await Promise.all(refs.map((ref) => this.dataUrl(ref.url, ref.kind, depth)));
    let out = '';
    let at = 0;
    refs.forEach((ref, i) => {
      const data = replaced[i];
      if (data === undefined) return;
      out += css.slice(at, ref.start) + `${ref.prefix}url(${data})`;
      at = ref.end;
    });
    return out + css.slice(at);
  }

  private limited<T>(run: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        run()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            this.queue.shift()?.();
          });
      };
      if (this.running < (this.options.concurrency ?? 4)) start();
      else this.queue.push(start);
    });
  }
}

/** Absolute http(s) URLs are fetched; relative ones only against a stylesheet's own URL (a page has no base). */
function resolve(url: string, base: string | undefined): string | undefined {
  if (isRemote(url)) return url;
  if (!base || !url || url.startsWith('data:') || url.startsWith('#')) return undefined;
  try {
    const absolute = new URL(url, base).href;
    return isRemote(absolute) ? absolute : undefined;
  } catch {
    return undefined;
  }
}

async function replacement(slot: HtmlSlot, fetcher: AssetFetcher): Promise<string | undefined> {
  if (slot.type === 'url') {
    if (!isRemote(slot.url)) return undefined;
    const data = await fetcher.dataUrl(slot.url, slot.kind, 0);
    return data === undefined ? undefined : `"${data}${slot.suffix}"`;
  }
  const css = await fetcher.inlineCss(slot.css, undefined, 0);
  if (css === slot.css) return undefined;
  return slot.attribute ? `"${escapeAttribute(css)}"` : css;
}

/** Fetches what `html` names and returns it with data: URLs in their place. */
export async function inlineAssets(html: string, options: InlineOptions): Promise<Inlined> {
  const fetcher = new AssetFetcher(options);
  const slots = scanHtml(html);
  const replaced = await Promise.all(slots.map((slot) => replacement(slot, fetcher)));
  let out = '';
  let at = 0;
  slots.forEach((slot, i) => {
    const text = replaced[i];
    if (text === undefined) return;
    out += html.slice(at, slot.start) + text;
    at = slot.end;
  });
  return { html: out + html.slice(at), failures: fetcher.failures, fetched: fetcher.fetched, bytes: fetcher.bytes };
}
