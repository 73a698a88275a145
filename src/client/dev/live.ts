/**
 * The dev client, added by `npm run dev` only (a classic script in the head, so it runs before the app and
 * the app sees the dev flag). It listens to the dev server's event stream:
 * - 'content': tells the app (a `docs:dev-content` window event), which reads the new deployment as a tab
 *   of the built site does (src/client/dev/updates.ts) and re-renders the current page in place, keeping
 *   the scroll position;
 * - 'error': shows the problems over the last good page until they are fixed;
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
}

type DevMessage =
  | { type: 'content'; path: string[]; manifest: string }
  | { type: 'reload' }
  | { type: 'error'; diagnostics: DevDiagnostic[] };

const OVERLAY_ID = 'docs-dev-overlay';

document.documentElement.dataset['dev'] = 'true';

function removeOverlay(): void {
  document.getElementById(OVERLAY_ID)?.remove();
}

function showOverlay(diagnostics: DevDiagnostic[]): void {
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
  title.textContent = `${errors} content error${errors === 1 ? '' : 's'}; the page shows the last good build. Save a fix to continue.`;
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
    else if (message.type === 'error') showOverlay(message.diagnostics);
    else if (message.type === 'content') {
      removeOverlay();
      window.dispatchEvent(new Event(DEV_CONTENT_EVENT));
    }
  });
}

connect();
