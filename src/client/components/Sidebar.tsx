import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { withBase } from '../../shared/paths';
import type { SidebarGroup } from '../../shared/types';
import { useUi } from '../data/store';

export function Sidebar({ groups, base }: { groups: SidebarGroup[]; base: string }) {
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname ?? s.location.pathname });
  const open = useUi((s) => s.sidebarOpen);
  const nav = useRef<HTMLElement>(null);

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
      {groups.map((group) => (
        <section key={group.text} className="sidebar-group">
          <h2 className="sidebar-heading">{group.text}</h2>
          <ul>
            {group.items.map((item) => (
              <li key={item.link}>
                <a href={withBase(base, item.link)} aria-current={item.link === pathname ? 'page' : undefined}>
                  {item.text}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </nav>
  );
}
