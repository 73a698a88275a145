import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SiteSettings } from '../../shared/types';
import { DEFAULT_EMBED_DOMAINS } from '../markdown/embeds';

/** The site settings of the manifest that `version.json` names, or undefined when unreadable. */
function builtSiteSettings(distDir: string, base: string): Partial<SiteSettings> | undefined {
  try {
    const pointer = JSON.parse(readFileSync(path.join(distDir, 'version.json'), 'utf8')) as { manifest?: unknown };
    if (typeof pointer.manifest !== 'string' || !pointer.manifest.startsWith(base)) return undefined;
    const root = path.resolve(distDir);
    const file = path.resolve(root, pointer.manifest.slice(base.length));
    if (!file.startsWith(root + path.sep)) return undefined;
    return (JSON.parse(readFileSync(file, 'utf8')) as { site?: Partial<SiteSettings> }).site;
  } catch {
    return undefined;
  }
}

/**
 * Whether a built site turns analytics on: the manifest that `version.json` names has an analytics id.
 * The CSP has to allow the tag manager exactly then (a blocked gtm.js is analytics that silently never
 * runs), and a served `dist/` carries no other record of the site configuration. Anything unreadable
 * counts as "no": the strict policy is the safe default.
 */
export function builtSiteAnalytics(distDir: string, base = '/docs/'): boolean {
  const id = builtSiteSettings(distDir, base)?.analyticsId;
  return typeof id === 'string' && id !== '';
}

/** The embed domains of a built site, for the CSP's `frame-src`; the default list when unreadable. */
export function builtSiteEmbeds(distDir: string, base = '/docs/'): readonly string[] {
  const embeds = builtSiteSettings(distDir, base)?.embeds;
  return Array.isArray(embeds) && embeds.every((d) => typeof d === 'string') ? embeds : DEFAULT_EMBED_DOMAINS;
}
