import { useEffect } from 'react';
import { useScreen, useViewRendered, type View } from '../data/screen';
import { useUi } from '../data/store';
import { performEarlyTaps } from '../app/early-taps';
import { useLinkInterception } from '../app/links';
import { loadNavigationAfterTakeover } from '../app/navigation-loader';
import { AnnouncementBar } from './AnnouncementBar';
import { Header } from './Header';
import { NotFound } from './NotFound';
import { OlderVersionBar } from './OlderVersionBar';
import { PageError } from './PageError';
import { PageView } from './PageView';
import { ProgressBar } from './ProgressBar';
import { Sidebar } from './Sidebar';

/** The shared frame of every screen: header, sidebar, main area; also the not-found and error pages. */
export function Layout() {
  const manifest = useScreen((s) => s.site);
  const view = useScreen((s) => s.view);
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const setSidebarOpen = useUi((s) => s.setSidebarOpen);
  useLinkInterception(manifest.site.base, manifest.site.analyticsId);
  useViewRendered(view);

  // A marker for tests and tooling: the prerendered page is now driven by the app, whose navigation
  // loads next. The taps the boot script kept are performed now that every control listens (the effects
  // of the components inside run before this one).
  useEffect(() => {
    document.documentElement.dataset['hydrated'] = 'true';
    performEarlyTaps();
    loadNavigationAfterTakeover();
  }, []);

  useEffect(() => {
    if (!sidebarOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setSidebarOpen(false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [sidebarOpen, setSidebarOpen]);

  return (
    <div className={sidebarOpen ? 'layout sidebar-open' : 'layout'}>
      <a className="skip-link" href="#main-content">
        Skip to content
      </a>
      <ProgressBar />
      <Header site={manifest.site} />
      {manifest.site.announcement && <AnnouncementBar announcement={manifest.site.announcement} />}
      <div className="layout-body">
        <Sidebar groups={manifest.sidebar} base={manifest.site.base} />
        {sidebarOpen && (
          <button
            type="button"
            className="sidebar-backdrop"
            aria-label="Close navigation"
            onClick={() => setSidebarOpen(false)}
          />
        )}
        <main id="main-content" className="main" tabIndex={-1}>
          <OlderVersionBar site={manifest.site} route={view.kind === 'page' ? view.page.path : '/'} />
          <MainView view={view} />
        </main>
      </div>
      <Announcer />
    </div>
  );
}

/**
 * The live region that tells screen readers which page a navigation showed: a component of its own, so
 * that an announcement renders it alone rather than the whole layout.
 */
function Announcer() {
  const announcement = useUi((s) => s.announcement);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {announcement}
    </div>
  );
}

function MainView({ view }: { view: View }) {
  if (view.kind === 'page') return <PageView page={view.page} html={view.html} />;
  if (view.kind === 'error') return <PageError error={view.error} retry={view.retry} />;
  return <NotFound />;
}
