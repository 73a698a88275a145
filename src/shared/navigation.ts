import type { ManifestIndex } from './resolve';
import type { PageMeta, SidebarLink } from './types';

export interface Neighbours {
  prev?: SidebarLink;
  next?: SidebarLink;
}

/**
 * Previous and next links follow the sidebar order; frontmatter `prev`/`next` can hide either one
 * (`false`) or point it at another route.
 */
export function neighboursOf(
  page: PageMeta,
  { byRoute, sidebarOrder: order, sidebarPosition }: ManifestIndex,
): Neighbours {
  const index = sidebarPosition.get(page.path) ?? -1;
  const pick = (override: unknown, fallback: SidebarLink | undefined): SidebarLink | undefined => {
    if (override === false) return undefined;
    if (typeof override === 'string') {
      const target = byRoute.get(override);
      return target ? { text: target.title, link: target.path } : undefined;
    }
    return fallback;
  };
  return {
    prev: pick(page.frontmatter.prev, index > 0 ? order[index - 1] : undefined),
    next: pick(page.frontmatter.next, index >= 0 ? order[index + 1] : undefined),
  };
}
