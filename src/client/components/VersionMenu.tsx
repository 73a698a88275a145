import { useEffect, useRef, useState } from 'react';
import { withBase, withoutBase } from '../../shared/paths';
import type { SiteSettings, VersionLink } from '../../shared/types';
import { shownVersion } from '../../shared/versions';
import { useTrack } from '../app/analytics';
import { goToVersion } from '../data/version-page';

/**
 * The docs version menu: a disclosure button with a list of links. The button names the version the
 * reader is in; another version built with the site leads to the same page there, when it has one.
 */
export function VersionMenu({ site }: { site: SiteSettings }) {
  const { versions, analyticsId } = site;
  const [open, setOpen] = useState(false);
  const track = useTrack(analyticsId);
  const root = useRef<HTMLDivElement>(null);
  const current = shownVersion(site) ?? versions[0];

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (event instanceof KeyboardEvent ? event.key === 'Escape' : !root.current?.contains(event.target as Node)) {
        setOpen(false);
      }
    };
    document.addEventListener('pointerdown', close);
    document.addEventListener('keydown', close);
    return () => {
      document.removeEventListener('pointerdown', close);
      document.removeEventListener('keydown', close);
    };
  }, [open]);

  if (!current) return null;
  return (
    <div className="version-menu" ref={root}>
      <button
        type="button"
        className="version-button"
        aria-expanded={open}
        aria-controls="version-list"
        onClick={() => {
          setOpen(!open);
          track('version_menu', { open: !open });
        }}
      >
        {current.text}
        {current.badge && <span className="badge">{current.badge}</span>}
        <span className="version-caret" aria-hidden="true">
          {' '}
          ▾
        </span>
      </button>
      {open && (
        <ul id="version-list" className="version-list">
          {versions.map((version) => (
            <li key={version.text}>
              <VersionEntry
                version={version}
                shown={version === current}
                base={site.base}
                close={() => setOpen(false)}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/**
 * One version of the menu (shown only once it is open, in the browser). A version built with the site
 * links to the same route under its base, and on a click to where `goToVersion` finds the page there.
 */
function VersionEntry(props: { version: VersionLink; shown: boolean; base: string; close: () => void }) {
  const { version, shown, base, close } = props;
  const route = withoutBase(base, window.location.pathname) ?? '/';
  const other = version.built && !shown;
  return (
    <a
      href={other ? withBase(version.link, route) : version.link}
      aria-current={shown ? 'page' : undefined}
      {...(other && { 'data-version-link': '' })}
      onClick={(event) => {
        close();
        if (other) goToVersion(event, version.link, route);
      }}
    >
      {version.text}
      {version.badge && <span className="badge">{version.badge}</span>}
    </a>
  );
}
