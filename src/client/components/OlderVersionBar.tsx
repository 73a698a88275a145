import { withBase } from '../../shared/paths';
import type { SiteSettings } from '../../shared/types';
import { currentVersion, shownVersion } from '../../shared/versions';
import { goToVersion } from '../data/version-page';

/**
 * Above a page of an older version built with the site: which version it is, and a link to the same page
 * in the current version (its redirects followed), or to its home when it has no such page. Prerendered
 * with the page; the link names the same route, and the app finds the page in the current version's data
 * when it is followed.
 */
export function OlderVersionBar({ site, route }: { site: SiteSettings; route: string }) {
  const shown = shownVersion(site);
  const current = currentVersion(site);
  if (!shown || !current || shown === current) return null;
  return (
    <aside className="older-version" aria-label="Older version">
      <p>
        You are reading the docs of {shown.text}, an older version.{' '}
        <a
          href={withBase(current.link, route)}
          data-version-link=""
          onClick={(event) => goToVersion(event, current.link, route)}
        >
          See this page in {current.text}
        </a>
      </p>
    </aside>
  );
}
