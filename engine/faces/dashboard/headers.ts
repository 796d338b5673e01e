// The headers every dashboard answer carries: a strict Content-Security-Policy (same origin only, no
// inline script, no inline style but the sign-in page's one nonce'd stylesheet), no framing by others,
// no sniffing, no referrer, nothing cached but the static assets.
import { randomBytes } from 'node:crypto';
import type Koa from 'koa';

export function securityHeaders(ctx: Koa.Context, styleNonce?: string): void {
  const style = styleNonce ? `'self' 'nonce-${styleNonce}'` : "'self'";
  ctx.set(
    'Content-Security-Policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      `style-src ${style}`,
      "img-src 'self'",
      "frame-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'self'",
    ].join('; '),
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('X-Frame-Options', 'SAMEORIGIN');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.set('Cache-Control', 'no-store');
  // the API's `Access-Control-Allow-Origin: *` is not for these pages
  ctx.remove('Access-Control-Allow-Origin');
}

export const newNonce = (): string => randomBytes(16).toString('base64');
