/**
 * The dev client, added by `npm run dev` only (a classic script in the head, so it runs before the app and
 * the app sees the dev flag). It listens to the dev server's event stream:
 * - 'content': tells the app (a `docs:dev-content` window event), which reads the new deployment as a tab
 *   of the built site does (src/client/dev/updates.ts) and re-renders the current page in place, keeping
 *   the scroll position;
 * - 'problems': the site's problems after a rebuild; those of the page shown, and those of no page (as
 *   `_site.yaml`'s), are listed over it until fixed; the page itself shows the site as written, or the
 *   last good one when the rebuild could not write it;
 * - 'reload': reloads the page (the client bundle or the stylesheet changed).
 * No inline styles or scripts: styles are set through the CSSOM, which the CSP allows.
 */
import { DEV_CONTENT_EVENT } from './events';

interface DevDiagnostic {
  severity: 'error' | 'warning';
  file: string;
  line: number;
  column: number;
  message: string;
  /** The URL of the page the file makes, when it makes one. */
  page?: string;
}

type DevMessage =
  | { type: 'content'; path: string[]; manifest: string }
  | { type: 'reload' }
  | { type: 'problems'; diagnostics: DevDiagnostic[]; written: boolean };

const OVERLAY_ID = 'docs-dev-overlay';

document.documentElement.dataset['dev'] = 'true';

function removeOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

/** The last problems the server sent: shown again, for the page then shown, after each navigation. */
let problems: Extract<DevMessage, { type: 'problems' }> | undefined;

/** The problems of the page shown and of no page; the overlay goes when there are none. */
function showProblems(): void {
  if (!document.body) return void document.addEventListener('DOMContentLoaded', showProblems, { once: true });
  const here = decodeURI(window.location.pathname);
  const diagnostics = (problems?.diagnostics ?? []).filter((d) => d.page === undefined || d.page === here);
  if (!problems || !diagnostics.some((d) => d.severity === 'error')) return removeOverlay();
  const elsewhere = new Set(problems.diagnostics.filter((d) => d.severity === 'error').map((d) => d.page));
  elsewhere.delete(here);
  elsewhere.delete(undefined);
  showOverlay(diagnostics, problems.written, elsewhere.size);
}

function showOverlay(diagnostics: DevDiagnostic[], written: boolean, otherPages: number): void {
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
    const message = JSON.parse(event.data) as DevMessage;
    if (message.type === 'reload') window.location.reload();
    else if (message.type === 'problems') {
      problems = message;
      showProblems();
    } else if (message.type === 'content') window.dispatchEvent(new Event(DEV_CONTENT_EVENT));
  });
}

connect();
// The app moves between pages without a load: the overlay follows it (the Navigation API where the browser
// has it; back and forward everywhere).
const navigation = (window as { navigation?: EventTarget }).navigation;
navigation?.addEventListener('currententrychange', showProblems);
window.addEventListener('popstate', showProblems);
