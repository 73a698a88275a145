import { useEffect, type RefObject } from 'react';

/** The tab label the reader last chose in any code group ("Python"), kept across pages and visits. */
export const CODE_TAB_STORAGE_KEY = 'docs-code-tab';

function storedLabel(): string | null {
  try {
    return localStorage.getItem(CODE_TAB_STORAGE_KEY);
  } catch {
    return null;
  }
}

function storeLabel(label: string): void {
  try {
    localStorage.setItem(CODE_TAB_STORAGE_KEY, label);
  } catch {
    // Private mode without storage: the choice holds for this page only.
  }
}

const tabsOf = (group: Element) => [...group.querySelectorAll<HTMLElement>(':scope > [role="tablist"] > [role="tab"]')];

/** Shows one tab's panel in its group and hides the others (the prerendered markup's own attributes). */
function select(tab: HTMLElement): void {
  const group = tab.closest('.code-group');
  if (!group) return;
  for (const other of tabsOf(group)) {
    const chosen = other === tab;
    other.setAttribute('aria-selected', String(chosen));
    other.tabIndex = chosen ? 0 : -1;
    const panel = document.getElementById(other.getAttribute('aria-controls') ?? '');
    if (panel) panel.hidden = !chosen;
  }
}

/** Selects the tab labelled `label` in every group under `root` that has one. */
function selectEverywhere(root: HTMLElement, label: string): void {
  for (const group of root.querySelectorAll('.code-group')) {
    const tab = tabsOf(group).find((t) => t.textContent === label);
    if (tab) select(tab);
  }
}

/**
 * Makes the prerendered code groups work (WAI-ARIA tabs with automatic activation: arrows, Home, End).
 * A choice applies to every group on the page with the same label and is remembered for the next pages;
 * each page shown brings it back. The chosen tab stays where it was on screen while the groups above it
 * change height.
 */
export function useCodeGroups(content: RefObject<HTMLElement | null>, html: string): void {
  useEffect(() => {
    const root = content.current;
    if (!root) return;
    const label = storedLabel();
    if (label) selectEverywhere(root, label);

    const choose = (tab: HTMLElement) => {
      const label = tab.textContent ?? '';
      const before = tab.getBoundingClientRect().top;
      selectEverywhere(root, label);
      select(tab);
      window.scrollBy(0, tab.getBoundingClientRect().top - before);
      storeLabel(label);
    };
    const tabOf = (event: Event) =>
      event.target instanceof Element ? event.target.closest<HTMLElement>('.code-group [role="tab"]') : null;
    const onClick = (event: MouseEvent) => {
      const tab = tabOf(event);
      if (tab) choose(tab);
    };
    const onKey = (event: KeyboardEvent) => {
      const tab = tabOf(event);
      const group = tab?.closest('.code-group');
      if (!tab || !group) return;
      const tabs = tabsOf(group);
      const at = tabs.indexOf(tab);
      const next =
        event.key === 'ArrowRight'
          ? tabs[(at + 1) % tabs.length]
          : event.key === 'ArrowLeft'
            ? tabs[(at - 1 + tabs.length) % tabs.length]
            : event.key === 'Home'
              ? tabs[0]
              : event.key === 'End'
                ? tabs[tabs.length - 1]
                : undefined;
      if (!next) return;
      event.preventDefault();
      next.focus();
      choose(next);
    };
    root.addEventListener('click', onClick);
    root.addEventListener('keydown', onKey);
    return () => {
      root.removeEventListener('click', onClick);
      root.removeEventListener('keydown', onKey);
    };
  }, [content, html]);
}
