/**
 * Embedded players (`<iframe>`) a page may show: only from the domains of the site's `embeds` list
 * (`_site.yaml`), each with its subdomains. The same list makes the Content-Security-Policy's `frame-src`
 * (src/node/output/headers.ts, and from it dist/_headers.nginx), so an embed the build keeps is one the
 * browser loads, and no other.
 */

/** Video and recording hosts kept when `_site.yaml` names none. */
export const DEFAULT_EMBED_DOMAINS: readonly string[] = [
  'youtube.com',
  'youtube-nocookie.com',
  'vimeo.com',
  'loom.com',
];

/** The host of an https (or protocol-relative) URL, or undefined for anything else. */
function httpsHost(src: string): string | undefined {
  const trimmed = src.trim();
  if (!/^(https:)?\/\//i.test(trimmed)) return undefined;
  try {
    return new URL(trimmed, 'https://x').hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/** True when an iframe with this `src` is kept: https, from a listed domain or one of its subdomains. */
export function isAllowedEmbed(src: string, domains: readonly string[]): boolean {
  const host = httpsHost(src);
  return host !== undefined && domains.some((domain) => host === domain || host.endsWith(`.${domain}`));
}

/** The CSP `frame-src` sources of the list: each domain and its subdomains, https only. */
export function frameSources(domains: readonly string[]): string[] {
  return domains.flatMap((domain) => [`https://${domain}`, `https://*.${domain}`]);
}
