import { usePageHead } from '../app/head';
import { useScreen } from '../data/screen';
import { useUi } from '../data/store';

/** Unknown paths: a page inside the layout, so navigation and search stay at hand. */
export function NotFound() {
  const manifest = useScreen((s) => s.site);
  const setSearchOpen = useUi((s) => s.setSearchOpen);
  usePageHead(manifest.site, undefined);
  return (
    <div className="page">
      <article className="article">
        <div className="content not-found">
          <h1 tabIndex={-1}>Page not found</h1>
          <p>There is no page at this address. It may have moved, or the link may be mistyped.</p>
          <ul>
            <li>
              <a href={manifest.site.base}>Go to the overview</a>
            </li>
            <li>
              <button type="button" className="link-button" onClick={() => setSearchOpen(true)}>
                Search the documentation
              </button>
            </li>
          </ul>
        </div>
      </article>
    </div>
  );
}
