import { Outlet, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useSite } from '../data/site-data';
import { useUi } from '../data/store';
import { useLinkInterception } from '../app/links';
import { useNavigationEffects } from '../app/navigation-effects';
import { AnnouncementBar } from './AnnouncementBar';
import { Header } from './Header';
import { ProgressBar } from './ProgressBar';
import { Sidebar } from './Sidebar';

/** The shared frame of every screen: header, sidebar, main area; also the not-found and error pages. */
export function Layout() {
  const manifest = useSite();
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const setSidebarOpen = useUi((s) => s.setSidebarOpen);
  const announcement = useUi((s) => s.announcement);
  const router = useRouter();
  useLinkInterception(router, manifest.site.base, manifest.site.analyticsId);
  useNavigationEffects(router, manifest.site.analyticsId);

  // A marker for tests and tooling: the prerendered page is now driven by the app.
  useEffect(() => {
    document.documentElement.dataset['hydrated'] = 'true';
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
          <Outlet />
        </main>
      </div>
      <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
    </div>
  );
}
