import { createContext, useContext, useLayoutEffect } from 'react';
import { createStore, useStore, type StoreApi } from 'zustand';
import type { ShardPage, SidebarGroupFile, SiteCore } from '../../shared/site-data';
import { fetchSidebarGroup, type Deployment } from './files';

/** What the main area shows: a page with its content, the not-found page, or a page that failed to load. */
export type View =
  | { kind: 'page'; page: ShardPage; html: string }
  | { kind: 'not-found' }
  | { kind: 'error'; error: unknown; retry: () => void };

/**
 * Everything the screen renders from. The app's start fills it from the data files (and the page's content
 * from the document), the prerender from the build's data, and navigation (app/navigation.ts) on each
 * navigation: the components read only this, never the router or the data cache.
 */
export interface Screen {
  deployment: Deployment;
  site: SiteCore;
  /** The route shown: the path without the base. */
  route: string;
  view: View;
  /** Entries of the folded sidebar groups read so far, for this deployment. */
  groups: ReadonlyMap<number, SidebarGroupFile>;
  /** Folded sidebar groups whose entries failed to load, with why. */
  groupErrors: ReadonlyMap<number, unknown>;
  /** A navigation is under way (the current page stays until the next one is ready). */
  pending: boolean;
}

export type ScreenStore = StoreApi<Screen>;

/**
 * A store per render: the prerender renders each document from its own, and hydration reads the state the
 * store was made with (zustand's server snapshot), which is what the document shows.
 */
export const createScreen = (initial: Screen): ScreenStore => createStore<Screen>()(() => initial);

export const ScreenContext = createContext<ScreenStore | null>(null);

export function useScreenStore(): ScreenStore {
  const store = useContext(ScreenContext);
  if (!store) throw new Error('the screen is rendered without its store');
  return store;
}

export function useScreen<T>(select: (screen: Screen) => T): T {
  return useStore(useScreenStore(), select);
}

/** Reads a folded group's entries by its file's name (`SidebarGroup.file`). */
type ReadGroup = (deployment: Deployment, name: string) => Promise<SidebarGroupFile>;

/** Straight from the network until navigation has loaded; then through its cache (`readGroupsWith`). */
let readGroup: ReadGroup = (deployment, name) => fetchSidebarGroup(deployment, name, undefined);
const reading = new Set<string>();

export function readGroupsWith(read: ReadGroup): void {
  readGroup = read;
}

/** Loads the entries of folded sidebar group `g` into the screen (a group the reader opened); once at a time. */
export function loadGroup(store: ScreenStore, g: number): void {
  const { deployment, site } = store.getState();
  const name = site.sidebar[g]?.file;
  const key = `${deployment.hash}/${g}`;
  if (name === undefined || reading.has(key)) return;
  reading.add(key);
  const without = (map: ReadonlyMap<number, unknown>) => new Map([...map].filter(([n]) => n !== g));
  store.setState((screen) => ({ groupErrors: without(screen.groupErrors) }));
  const current = () => store.getState().deployment.hash === deployment.hash;
  readGroup(deployment, name)
    .then(
      (file) => current() && store.setState((screen) => ({ groups: new Map(screen.groups).set(g, file) })),
      (error: unknown) =>
        current() && store.setState((screen) => ({ groupErrors: new Map(screen.groupErrors).set(g, error) })),
    )
    .finally(() => reading.delete(key));
}

const renderWaiters = new Set<() => void>();

/** Resolves once the screen has committed its next view to the DOM. */
export function nextViewRendered(): Promise<void> {
  return new Promise((resolve) => renderWaiters.add(resolve));
}

/** The screen's side of `nextViewRendered`: called by the component that shows the view. */
export function useViewRendered(view: View): void {
  useLayoutEffect(() => {
    for (const resolve of renderWaiters) resolve();
    renderWaiters.clear();
  }, [view]);
}
