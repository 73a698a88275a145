import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Whether a built site turns analytics on: the manifest that `version.json` names has an analytics id.
 * The CSP has to allow the tag manager exactly then (a blocked gtm.js is analytics that silently never
 * runs), and a served `dist/` carries no other record of the site configuration. Anything unreadable
 * counts as "no": the strict policy is the safe default.
 */
export function builtSiteAnalytics(distDir: string, base = '/docs/'): boolean {
  try {
    const pointer = JSON.parse(readFileSync(path.join(distDir, 'version.json'), 'utf8')) as { manifest?: unknown };
    if (typeof pointer.manifest !== 'string' || !pointer.manifest.startsWith(base)) return false;
    const root = path.resolve(distDir);
    const file = path.resolve(root, pointer.manifest.slice(base.length));
    if (!file.startsWith(root + path.sep)) return false;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { site?: { analyticsId?: unknown } };
    const id = manifest.site?.analyticsId;
    return typeof id === 'string' && id !== '';
  } catch {
    return false;
  }
}
