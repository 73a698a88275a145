import type { Manifest, PageMeta, SidebarLink } from './types';

export interface Neighbours {
  prev?: SidebarLink;
  next?: SidebarLink;
}

/**
 * Previous and next links follow the sidebar order; frontmatter `prev`/`next` can hide either one
 * (`false`) or point it at another route.
 */
export function neighboursOf(manifest: Manifest, page: PageMeta, byRoute: ReadonlyMap<string, PageMeta>): Neighbours {
  const order = manifest.sidebar.flatMap((group) => group.items);
  const index = order.findIndex((item) => item.link === page.path);
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
