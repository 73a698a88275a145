import { describeChunkError, isChunkLoadError } from '../../shared/chunk-error';

/**
 * The app could not start, or its navigation could not load: the page stays readable, and the banner says
 * that links fall back to full page loads. Retry runs `retry`; one banner at a time.
 */
export function showStartupError(error: unknown, retry: () => void): void {
  document.querySelector('.startup-error')?.remove();
  const banner = document.createElement('div');
  banner.className = 'startup-error';
  banner.setAttribute('role', 'alert');
  // The same marker as the page and chunk error views, for tooling and tests: missing, timeout or error.
  banner.dataset['errorType'] = isChunkLoadError(error) ? error.type : 'unknown';
  const reason = isChunkLoadError(error) ? describeChunkError(error) : 'The site data could not be read.';
  const text = document.createElement('span');
  text.textContent = `Site navigation could not start: ${reason} Links still work as normal page loads.`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button';
  button.textContent = 'Retry';
  button.addEventListener('click', () => {
    banner.remove();
    retry();
  });
  banner.append(text, button);
  document.body.prepend(banner);
}
