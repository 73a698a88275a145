import { memo, useEffect, useRef, useState } from 'react';
import { describeChunkError, isChunkLoadError } from '../../shared/chunk-error';
import { withBase } from '../../shared/paths';
import { isFolded } from '../../shared/site-data';
import type { SidebarGroup, SidebarLink } from '../../shared/types';
import { afterPaint } from '../app/next-task';
import { loadGroup, useScreen, useScreenStore } from '../data/screen';
import { useUi } from '../data/store';

export { FOLD_SIDEBAR_ABOVE } from '../../shared/site-data';
const NO_GROUPS: readonly number[] = [];
const NO_TOGGLES: ReadonlySet<string> = new Set();

export function Sidebar({ groups, base }: { groups: SidebarGroup[]; base: string }) {
  const pathname = useScreen((s) => s.route);
  // The groups that list the page shown, as its record says (the build found them); none elsewhere.
  const current = useScreen((s) => (s.view.kind === 'page' ? s.view.page.groups : NO_GROUPS));
  const open = useUi((s) => s.sidebarOpen);
  const nav = useRef<HTMLElement>(null);
  // Groups the reader toggled on this page (a folded one opened, or the current one closed). A new page
  // starts from its own group open: choices belong to the page they were made on.
  const [choice, setChoice] = useState<{ path: string; groups: ReadonlySet<string> }>(() => ({
    path: pathname,
    groups: new Set(),
  }));
  const toggled = choice.path === pathname ? choice.groups : NO_TOGGLES;
  const toggle = (text: string) => {
    const groups = new Set(toggled);
    if (!groups.delete(text)) groups.add(text);
    setChoice({ path: pathname, groups });
  };

  // Keep the current page's entry in view inside the sidebar, without scrolling the page itself. Once the
  // new page has been painted: read before, the entry's position would lay the new page out then and there.
  useEffect(() => afterPaint(() => keepCurrentEntryInView(nav.current)), [pathname]);

  return (
    <nav id="sidebar" ref={nav} className="sidebar" aria-label="Documentation" data-open={open || undefined}>
      {groups.map((group, g) => {
        // A group the build folded shows its entries when it lists the page shown, or when the reader opened it.
        const folded = isFolded(group);
        const expanded = !folded || current.includes(g) !== toggled.has(group.text);
        return (
          <section key={group.text} className="sidebar-group">
            <h2 className="sidebar-heading">
              {folded ? (
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
            {expanded &&
              (folded ? (
                <FoldedEntries group={g} base={base} pathname={pathname} />
              ) : (
                <Entries items={group.items} base={base} pathname={pathname} />
              ))}
          </section>
        );
      })}
    </nav>
  );
}

function keepCurrentEntryInView(container: HTMLElement | null): void {
  const active = container?.querySelector<HTMLElement>('[aria-current="page"]');
  if (!container || !active) return;
  const top = active.offsetTop - container.offsetTop;
  if (top < container.scrollTop || top > container.scrollTop + container.clientHeight - active.offsetHeight) {
    container.scrollTop = top - container.clientHeight / 3;
  }
}

/**
 * A group's entries, marking the page shown. A navigation renders again only the groups it leaves and
 * enters: the others are given the same props (`current` is the route only where it is one of theirs).
 */
function Entries({ items, base, pathname }: { items: readonly SidebarLink[]; base: string; pathname: string }) {
  const current = items.some((item) => item.link === pathname) ? pathname : undefined;
  return <EntryList items={items} base={base} current={current} />;
}

const EntryList = memo(function EntryList({
  items,
  base,
  current,
}: {
  items: readonly SidebarLink[];
  base: string;
  current: string | undefined;
}) {
  return (
    <ul>
      {items.map((item) => (
        <li key={item.link}>
          <a href={withBase(base, item.link)} aria-current={item.link === current ? 'page' : undefined}>
            {item.text}
          </a>
        </li>
      ))}
    </ul>
  );
});

/**
 * The entries of a folded group, in a file of their own (src/shared/site-data.ts): loaded when the group is
 * open; a failure says why, with a Retry.
 */
function FoldedEntries({ group, base, pathname }: { group: number; base: string; pathname: string }) {
  const store = useScreenStore();
  const data = useScreen((s) => s.groups.get(group));
  const error = useScreen((s) => s.groupErrors.get(group));
  const failed = useScreen((s) => s.groupErrors.has(group));
  useEffect(() => {
    if (!data && !failed) loadGroup(store, group);
  }, [store, group, data, failed]);
  if (data) return <Entries items={data.items} base={base} pathname={pathname} />;
  if (!failed) return <p className="sidebar-loading">Loading…</p>;
  const chunk = isChunkLoadError(error) ? error : undefined;
  return (
    <div className="sidebar-error" role="alert" data-error-type={chunk?.type ?? 'unknown'}>
      <p>{chunk ? describeChunkError(chunk) : 'The entries of this group could not be loaded.'}</p>
      <button type="button" className="button" onClick={() => loadGroup(store, group)}>
        Retry
      </button>
    </div>
  );
}
