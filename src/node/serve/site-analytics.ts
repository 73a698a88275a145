import { readFileSync } from 'node:fs';
import path from 'node:path';
import { POINTER_FILE } from '../../shared/site-data';
import type { SiteSettings } from '../../shared/types';
import { DEFAULT_EMBED_DOMAINS } from '../scan/embeds';

/** The base a served `dist/` was built for, when its files say: see `builtSite`. */
export interface BuiltSite {
  base: string;
  settings: Partial<SiteSettings>;
}

function readManifestSite(root: string, url: string, base: string): Partial<SiteSettings> | undefined {
  if (!url.startsWith(base)) return undefined;
  const file = path.resolve(root, url.slice(base.length));
  if (!file.startsWith(root + path.sep)) return undefined;
  try {
    const site = (JSON.parse(readFileSync(file, 'utf8')) as { site?: unknown }).site;
    return site && typeof site === 'object' ? (site as Partial<SiteSettings>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The base and site settings of a built `dist/`, from the manifest that `version.json` names, or undefined
 * when unreadable. `dist/` is the content of the base path, so the base is not in any file's location:
 * the pointer names the manifest by its URL (`<base>assets/js/manifest.<hash>.json`), and the base is the
 * prefix of that URL whose remainder is a manifest in `dist/` saying it was built for that very base. With
 * `base`, only that base is tried.
 */
export function builtSite(distDir: string, base?: string): BuiltSite | undefined {
  const root = path.resolve(distDir);
  let url: unknown;
  try {
    url = (JSON.parse(readFileSync(path.join(root, POINTER_FILE), 'utf8')) as { manifest?: unknown }).manifest;
  } catch {
    return undefined;
  }
  if (typeof url !== 'string' || !url.startsWith('/')) return undefined;
  const parts = url.split('/');
  // Every folder of the URL, the longest first: a site at /docs/ is not taken for one at / whose manifest
  // happens to sit in docs/.
  const prefixes = parts.slice(1).map((_, i) => `${parts.slice(0, i + 1).join('/')}/`);
  for (const candidate of base ? [base] : prefixes.reverse()) {
    const settings = readManifestSite(root, url, candidate);
    if (settings && (settings.base ?? candidate) === candidate) return { base: candidate, settings };
  }
  return undefined;
}

/** What a served build's Content-Security-Policy depends on, read from its manifest. */
export interface BuiltSiteSecurity {
  /**
   * Whether the site turns analytics on: the manifest that `version.json` names has an analytics id. The
   * CSP has to allow the tag manager exactly then (a blocked gtm.js is analytics that silently never runs),
   * and a served `dist/` carries no other record of the site configuration. Anything unreadable counts as
   * "no": the strict policy is the safe default.
   */
  analytics: boolean;
  /** The embed domains, for the CSP's `frame-src`; the default list when unreadable. */
  embeds: readonly string[];
  /** Where page feedback is sent, for the CSP's `connect-src`; none when unreadable. */
  feedbackEndpoint?: string;
}

export function securityOf(settings: Partial<SiteSettings> | undefined): BuiltSiteSecurity {
  const id = settings?.analyticsId;
  const embeds = settings?.embeds;
  const endpoint = settings?.feedback?.endpoint;
  return {
    analytics: typeof id === 'string' && id !== '',
    embeds: Array.isArray(embeds) && embeds.every((d) => typeof d === 'string') ? embeds : DEFAULT_EMBED_DOMAINS,
    ...(typeof endpoint === 'string' && URL.canParse(endpoint) && { feedbackEndpoint: endpoint }),
  };
}

export function builtSiteSecurity(distDir: string, base?: string): BuiltSiteSecurity {
  return securityOf(builtSite(distDir, base)?.settings);
}
