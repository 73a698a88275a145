import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { describeChunkError, isChunkLoadError } from '../../shared/chunk-error';
import { withBase } from '../../shared/paths';
import { groupPending, groupsByRoute, sidebarFolds } from '../../shared/site-data';
import type { SidebarGroup } from '../../shared/types';
import { ensureSidebarGroup } from '../data/site-data';
import { useUi } from '../data/store';

export { FOLD_SIDEBAR_ABOVE } from '../../shared/site-data';
const NO_GROUPS: ReadonlySet<string> = new Set();

const listings = new WeakMap<readonly SidebarGroup[], ReadonlyMap<string, readonly number[]>>();

/**
 * The groups that list each route, built once per sidebar: the prerenderer renders every page with one
 * sidebar, and looking the current page up in every group made that quadratic in the site's size.
 */
function groupsListing(groups: readonly SidebarGroup[]): ReadonlyMap<string, readonly number[]> {
  let listing = listings.get(groups);
  if (!listing) listings.set(groups, (listing = groupsByRoute(groups)));
  return listing;
}

export function Sidebar({ groups, base }: { groups: SidebarGroup[]; base: string }) {
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname ?? s.location.pathname });
  const open = useUi((s) => s.sidebarOpen);
  const nav = useRef<HTMLElement>(null);
  const folds = sidebarFolds(groups);
  const listing = groupsListing(groups);
  // Groups the reader toggled on this page (a folded one opened, or the current one closed). A new page
  // starts from its own group open: choices belong to the page they were made on.
  const [choice, setChoice] = useState<{ path: string; groups: ReadonlySet<string> }>(() => ({
    path: pathname,
    groups: new Set(),
  }));
  const toggled = choice.path === pathname ? choice.groups : NO_GROUPS;
  const toggle = (text: string) => {
    const groups = new Set(toggled);
    if (!groups.delete(text)) groups.add(text);
    setChoice({ path: pathname, groups });
  };

  // Keep the current page's entry in view inside the sidebar, without scrolling the page itself.
  useEffect(() => {
    const container = nav.current;
    const active = container?.querySelector<HTMLElement>('[aria-current="page"]');
    if (!container || !active) return;
    const top = active.offsetTop - container.offsetTop;
    if (top < container.scrollTop || top > container.scrollTop + container.clientHeight - active.offsetHeight) {
      container.scrollTop = top - container.clientHeight / 3;
    }
  }, [pathname]);

  return (
    <nav id="sidebar" ref={nav} className="sidebar" aria-label="Documentation" data-open={open || undefined}>
      {groups.map((group, g) => {
        const current = listing.get(pathname)?.includes(g) ?? false;
        const expanded = !folds || current !== toggled.has(group.text);
        return (
          <section key={group.text} className="sidebar-group">
            <h2 className="sidebar-heading">
              {folds ? (
                <button
                  type="button"
                  className="sidebar-fold"
                  aria-expanded={expanded}
                  onClick={() => toggle(group.text)}
                >
                  {group.text}
                </button>
              ) : (
                group.text
              )}
            </h2>
            {expanded && groupPending(group) && <GroupLoader group={g} />}
            {expanded && !groupPending(group) && (
              <ul>
                {group.items.map((item) => (
                  <li key={item.link}>
                    <a href={withBase(base, item.link)} aria-current={item.link === pathname ? 'page' : undefined}>
                      {item.text}
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </nav>
  );
}

/**
 * A folded group the reader opened whose entries are in a file of their own (src/shared/site-data.ts):
 * loads them into the manifest, which then shows the list; a failure says why, with a Retry.
 */
function GroupLoader({ group }: { group: number }) {
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<{ error: unknown; attempt: number }>();
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    ensureSidebarGroup(queryClient, group).catch((error: unknown) => setFailure({ error, attempt }));
  }, [queryClient, group, attempt]);
  if (!failure || failure.attempt !== attempt) return <p className="sidebar-loading">Loading…</p>;
  const chunk = isChunkLoadError(failure.error) ? failure.error : undefined;
  return (
    <div className="sidebar-error" role="alert" data-error-type={chunk?.type ?? 'unknown'}>
      <p>{chunk ? describeChunkError(chunk) : 'The entries of this group could not be loaded.'}</p>
      <button type="button" className="button" onClick={() => setAttempt(attempt + 1)}>
        Retry
      </button>
    </div>
  );
}
