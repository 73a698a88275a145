import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { withBase } from '../../shared/paths';
import type { SidebarGroup } from '../../shared/types';
import { useUi } from '../data/store';

/**
 * Past this many entries, only the current page's group is open and the others fold behind their heading.
 * Every page's HTML carries the sidebar: with all of a few thousand entries in each, the site's size (and
 * its prerendering time) would grow with the square of its page count.
 */
export const FOLD_SIDEBAR_ABOVE = 300;
const NO_GROUPS: ReadonlySet<string> = new Set();

export function Sidebar({ groups, base }: { groups: SidebarGroup[]; base: string }) {
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname ?? s.location.pathname });
  const open = useUi((s) => s.sidebarOpen);
  const nav = useRef<HTMLElement>(null);
  const folds = groups.reduce((n, g) => n + g.items.length, 0) > FOLD_SIDEBAR_ABOVE;
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
      {groups.map((group) => {
        const current = group.items.some((item) => item.link === pathname);
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
            {expanded && (
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
