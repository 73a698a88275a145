import { readFileSync } from 'node:fs';
import path from 'node:path';
import { POINTER_FILE } from '../../shared/site-data';
import type { SiteSettings } from '../../shared/types';
import { DEFAULT_EMBED_DOMAINS } from '../markdown/embeds';

/** The site settings of the manifest that `version.json` names, or undefined when unreadable. */
function builtSiteSettings(distDir: string, base: string): Partial<SiteSettings> | undefined {
  try {
    const pointer = JSON.parse(readFileSync(path.join(distDir, POINTER_FILE), 'utf8')) as { manifest?: unknown };
    if (typeof pointer.manifest !== 'string' || !pointer.manifest.startsWith(base)) return undefined;
    const root = path.resolve(distDir);
    const file = path.resolve(root, pointer.manifest.slice(base.length));
    if (!file.startsWith(root + path.sep)) return undefined;
    return (JSON.parse(readFileSync(file, 'utf8')) as { site?: Partial<SiteSettings> }).site;
  } catch {
    return undefined;
  }
}

/** What a served build's Content-Security-Policy depends on, read from its manifest once. */
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
}

export function builtSiteSecurity(distDir: string, base = '/docs/'): BuiltSiteSecurity {
  const settings = builtSiteSettings(distDir, base);
  const id = settings?.analyticsId;
  const embeds = settings?.embeds;
  return {
    analytics: typeof id === 'string' && id !== '',
    embeds: Array.isArray(embeds) && embeds.every((d) => typeof d === 'string') ? embeds : DEFAULT_EMBED_DOMAINS,
  };
}
