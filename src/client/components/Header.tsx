import { memo } from 'react';
import { withBase } from '../../shared/paths';
import type { SiteSettings } from '../../shared/types';
import { useUi } from '../data/store';
import { SearchButton } from '../search/SearchButton';
import { ThemeToggle } from './ThemeToggle';
import { VersionMenu } from './VersionMenu';

/** The header: the same on every page, so a navigation does not render it again (`memo`). */
export const Header = memo(function Header({ site }: { site: SiteSettings }) {
  const sidebarOpen = useUi((s) => s.sidebarOpen);
  const setSidebarOpen = useUi((s) => s.setSidebarOpen);
  return (
    <header className="header">
      <button
        type="button"
        className="menu-button"
        aria-label={sidebarOpen ? 'Close navigation' : 'Open navigation'}
        aria-expanded={sidebarOpen}
        aria-controls="sidebar"
        onClick={() => setSidebarOpen(!sidebarOpen)}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <a className="site-title" href={site.base}>
        {site.title}
      </a>
      <VersionMenu site={site} />
      {site.nav && site.nav.length > 0 && (
        <nav className="header-nav" aria-label="Site links">
          {site.nav.map((item) => (
            <a
              key={item.link}
              href={item.link.startsWith('/') ? withBase(site.base, item.link) : item.link}
              {...(item.link.startsWith('/') ? {} : { rel: 'noopener' })}
            >
              {item.text}
            </a>
          ))}
        </nav>
      )}
      <div className="header-spacer" />
      <SearchButton />
      <ThemeToggle />
    </header>
  );
});
