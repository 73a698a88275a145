/**
 * The dev client, added by `npm run dev` only (a classic script in the head, so it runs before the app and
 * the app sees the dev flag). It listens to the dev server's event stream:
 * - 'content': tells the app (a `docs:dev-content` window event, with what the rebuild wrote), which reads
 *   the new deployment (src/client/dev/updates.ts) and re-renders the current page in place, keeping the
 *   scroll position;
 * - 'problems': the site's problems changed after a rebuild; those of the page shown, and those of no
 *   page (as `_site.yaml`'s), asked for at /__dev/problems, are listed over it until fixed; the page itself
 *   shows the site as written, or the last good one when the rebuild could not write it;
 * - 'reload': reloads the page (the client bundle or the stylesheet changed).
 * No inline styles or scripts: styles are set through the CSSOM, which the CSP allows.
 */
import type { DevProblem, PageProblems } from '../../shared/dev-problems';
import type { DevEvent } from '../../shared/dev-update';
import { DEV_CONTENT_EVENT } from './events';

const OVERLAY_ID = 'docs-dev-overlay';

document.documentElement.dataset['dev'] = 'true';

function removeOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

/** The site's errors after the last rebuild: the page shown asks for its own while there are any. */
let siteErrors = 0;
/** The last request for a page's problems: an answer to an earlier one (a page since left) is dropped. */
let asked = 0;

/** The problems of the page shown and of no page, from the dev server; the overlay goes when there are none. */
function showProblems(): void {
  // Counted here too: an answer still on its way from before the errors were fixed must not show them.
  const request = ++asked;
  if (siteErrors === 0) return removeOverlay();
  const page = decodeURI(window.location.pathname);
  fetch(`/__dev/problems?page=${encodeURIComponent(page)}`, { cache: 'no-store' })
    .then((response) => response.json() as Promise<PageProblems>)
    .then((problems) => {
      if (request !== asked) return;
      if (!problems.diagnostics.some((d) => d.severity === 'error')) return removeOverlay();
      if (!document.body) {
        const show = () => showOverlay(problems.diagnostics, problems.written, problems.otherPages);
        return void document.addEventListener('DOMContentLoaded', show, { once: true });
      }
      showOverlay(problems.diagnostics, problems.written, problems.otherPages);
    })
    .catch((error: unknown) => console.warn('docs dev: could not read the problems', error));
}

function showOverlay(diagnostics: DevProblem[], written: boolean, otherPages: number): void {
  removeOverlay();
  const overlay = document.createElement('div');
  overlay.id = OVERLAY_ID;
  overlay.setAttribute('role', 'alert');
  Object.assign(overlay.style, {
    position: 'fixed',
    left: '0',
    right: '0',
    bottom: '0',
    maxHeight: '50vh',
    overflow: 'auto',
    zIndex: '2147483647',
    margin: '0',
    padding: '12px 16px',
    background: 'rgba(24, 24, 27, 0.96)',
    color: '#fafafa',
    font: '13px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    borderTop: '3px solid #e5484d',
    boxShadow: '0 -4px 16px rgba(0, 0, 0, 0.3)',
  });
  const title = document.createElement('div');
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const others = otherPages ? ` (and errors in ${otherPages} other page${otherPages === 1 ? '' : 's'})` : '';
  const shows = written ? 'the page shows them as the site is now' : 'the page shows the last good build';
  title.textContent = `${errors} content error${errors === 1 ? '' : 's'}${others}; ${shows}. Save a fix to continue.`;
  Object.assign(title.style, { fontWeight: '600', marginBottom: '6px', color: '#ff9592' });
  const list = document.createElement('pre');
  Object.assign(list.style, { margin: '0', whiteSpace: 'pre-wrap', font: 'inherit' });
  list.textContent = diagnostics
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.severity === 'warning' ? 'warning: ' : ''}${d.message}`)
    .join('\n');
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Hide';
  Object.assign(close.style, { position: 'absolute', top: '8px', right: '12px', cursor: 'pointer' });
  close.addEventListener('click', removeOverlay);
  overlay.append(title, list, close);
  document.body.append(overlay);
}

function connect(): void {
  const source = new EventSource('/__dev/events');
  source.addEventListener('message', (event: MessageEvent<string>) => {
    const message = JSON.parse(event.data) as DevEvent;
    if (message.type === 'reload') window.location.reload();
    else if (message.type === 'problems') {
      siteErrors = message.errors;
      showProblems();
    } else if (message.type === 'content')
      window.dispatchEvent(new CustomEvent(DEV_CONTENT_EVENT, { detail: message.update }));
  });
}

connect();
// The app moves between pages without a load: the overlay follows it (the Navigation API where the browser
// has it; back and forward everywhere).
const navigation = (window as { navigation?: EventTarget }).navigation;
navigation?.addEventListener('currententrychange', showProblems);
window.addEventListener('popstate', showProblems);
