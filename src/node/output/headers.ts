import { DEFAULT_EMBED_DOMAINS, frameSources } from '../scan/embeds';
import { ANALYTICS_ORIGIN } from './document';

/**
 * Security headers for every response. The CSP allows no inline script and no third-party origin
 * except the tag manager, and only when the site configures an analytics id, and the embed domains of
 * `_site.yaml` (`embeds`) as frames, the ones whose iframes the build keeps, and the origin the page
 * feedback is sent to (`feedback.endpoint`), the one place a page may send data to.
 */
export function securityHeaders(
  analytics: boolean,
  embeds: readonly string[] = DEFAULT_EMBED_DOMAINS,
  feedbackEndpoint?: string,
): Record<string, string> {
  const third = analytics ? ` ${ANALYTICS_ORIGIN}` : '';
  const feedback = feedbackEndpoint ? ` ${new URL(feedbackEndpoint).origin}` : '';
  const frames = embeds.length > 0 ? frameSources(embeds).join(' ') : "'none'";
  const csp = [
    "default-src 'self'",
    `script-src 'self'${third}`,
    "style-src 'self'",
    "img-src 'self' data: https:",
    `connect-src 'self'${third}${feedback}`,
    "worker-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    `frame-src ${frames}`,
    "frame-ancestors 'none'",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
}

/** Hashed assets never change; everything else (HTML, version.json, _redirects) is revalidated. */
export function cacheControl(pathname: string, base: string): string {
  const hashed = pathname.startsWith(`${base}assets/`) && /\.[A-Za-z0-9]{8}\.[a-z0-9]+$/.test(pathname);
  return hashed ? 'public, max-age=31536000, immutable' : 'no-cache';
}
