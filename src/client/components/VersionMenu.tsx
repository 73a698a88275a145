import { useEffect, useRef, useState } from 'react';
import type { VersionLink } from '../../shared/types';
import { useTrack } from '../app/analytics';

/** The docs version menu: a disclosure button with a list of links. */
export function VersionMenu({ versions, analyticsId }: { versions: VersionLink[]; analyticsId: string | undefined }) {
  const [open, setOpen] = useState(false);
  const track = useTrack(analyticsId);
  const root = useRef<HTMLDivElement>(null);
  const current = versions.find((v) => v.current) ?? versions[0];

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
              <a href={version.link} aria-current={version.current ? 'page' : undefined} onClick={() => setOpen(false)}>
                {version.text}
                {version.badge && <span className="badge">{version.badge}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
