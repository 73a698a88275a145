import { isFileLink, localAsset, type AssetKind, type PageAsset } from './assets';
import { resolveLink } from './links';

/**
 * Where the links, images and files a page writes go, in markdown and raw HTML alike: internal links are
 * rewritten to the canonical URL and kept for the site-wide check, local images and files become hashed
 * assets, unsafe schemes are removed. Each problem is reported at the offset it was written at.
 */

/** What of the page the targets need: its place in the site and where its files are. */
export interface TargetContext {
  file: string;
  absoluteDir: string;
  contentDir?: string;
  route: string;
  base: string;
}

/** An internal link, kept for validation once every page's routes and slugs are known. */
export interface LinkReference {
  route: string;
  hash: string;
  line: number;
  column: number;
  written: string;
}

export type Report = (offset: number, message: string, severity: 'error' | 'warning' | 'problem') => void;

export function linkTargets(
  ctx: TargetContext,
  report: Report,
  at: (offset: number) => { line: number; column: number },
  found: { links: LinkReference[]; assets: PageAsset[]; uncopied: string[] },
) {
  /** Where a link goes (null: nowhere, its text stays); internal links are kept for the site-wide check. */
  function linkTarget(written: string, offset: number, raw = false): { href: string | null; external: boolean } {
    if (isFileLink(written)) return { href: assetHref(written, 'file', offset, raw), external: false };
    const resolved = resolveLink(written, ctx.route, ctx.file);
    const { line, column } = at(offset);
    switch (resolved.kind) {
      case 'unsafe':
        report(offset, `link "${written}" uses a scheme that is not allowed and was removed`, 'warning');
        return { href: null, external: false };
      case 'external':
        return { href: resolved.href, external: true };
      case 'anchor':
        found.links.push({ route: ctx.route, hash: resolved.hash, line, column, written });
        return { href: `#${encodeURIComponent(resolved.hash)}`, external: false };
      case 'internal': {
        found.links.push({ route: resolved.route, hash: resolved.hash, line, column, written });
        const hash = resolved.hash ? `#${encodeURIComponent(resolved.hash)}` : '';
        return { href: ctx.base.replace(/\/$/, '') + encodeURI(resolved.route) + hash, external: false };
      }
    }
  }

  /** An image or an embedded file: external URLs stay as written, local files become hashed assets. */
  function embedTarget(written: string, kind: AssetKind, offset: number, raw = false): string | null {
    const resolved = resolveLink(written, ctx.route, ctx.file);
    if (resolved.kind === 'external') return resolved.href;
    if (resolved.kind === 'unsafe') {
      report(offset, `${kind} "${written}" uses a scheme that is not allowed and was removed`, 'warning');
      return null;
    }
    return assetHref(written, kind, offset, raw);
  }

  /**
   * A missing file is an error in markdown. Raw HTML is the writer's own markup and passes through as
   * written, so there it is a warning (`<img src=x onerror=…>` pasted from elsewhere must not stop a build).
   * A path out of the content folder is an error wherever it was written.
   */
  function assetHref(written: string, kind: AssetKind, offset: number, raw: boolean): string | null {
    const local = localAsset(written, kind, { ...ctx, contentDir: ctx.contentDir ?? ctx.absoluteDir });
    if ('problem' in local) {
      if (local.path !== undefined) found.uncopied.push(local.path);
      report(offset, local.problem, raw && !local.outside ? 'warning' : 'error');
      return null;
    }
    found.assets.push(local.asset);
    return local.href;
  }

  return { linkTarget, embedTarget };
}
