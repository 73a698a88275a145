/**
 * Taps on the page's controls before the app has taken it over, shared by the boot script and the app.
 * The prerendered buttons (the menu, search, the theme toggle, the version menu, code group tabs and copy
 * buttons, copy as Markdown, feedback, the announcement's dismiss) do nothing until React has hydrated
 * them. The boot script, which runs before the first paint, keeps each such tap and shows the button
 * pressed; the app performs the kept taps, in order, the moment it has hydrated. Links are not kept:
 * before the takeover a link is a plain page load, after it the app's.
 */

/** The controls whose taps are kept: the buttons inside the app's root. */
const CONTROLS = '#app button';
/** On a control whose tap waits for the app: the stylesheet shows it pressed. */
const KEPT_ATTRIBUTE = 'data-tap-kept';
/** Sent by the app once it has hydrated, with a function that receives the kept taps. */
const APP_TAKES_TAPS_EVENT = 'docs:app-takes-taps';

type TapReceiver = (controls: HTMLElement[]) => void;

/** Boot script: until the app takes them, taps on the page's controls are kept rather than lost. */
export function keepEarlyTaps(): void {
  const kept: HTMLElement[] = [];
  const onClick = (event: MouseEvent) => {
    const control = event.target instanceof Element ? event.target.closest<HTMLElement>(CONTROLS) : null;
    if (!control) return;
    // React's own listeners (on the root, once it hydrates) never see this tap: the app performs it.
    event.preventDefault();
    event.stopImmediatePropagation();
    control.setAttribute(KEPT_ATTRIBUTE, '');
    kept.push(control);
  };
  // Capture on the window runs before any listener on the page.
  window.addEventListener('click', onClick, true);
  window.addEventListener(
    APP_TAKES_TAPS_EVENT,
    (event) => {
      window.removeEventListener('click', onClick, true);
      (event as CustomEvent<TapReceiver>).detail(kept.splice(0));
    },
    { once: true },
  );
}

/**
 * App, once hydrated: ends the boot script's keeping and performs the taps it kept, as clicks on the same
 * buttons (hydration keeps the prerendered elements).
 */
export function performEarlyTaps(): void {
  const receive: TapReceiver = (controls) => {
    for (const control of controls) {
      control.removeAttribute(KEPT_ATTRIBUTE);
      if (control.isConnected) control.click();
    }
  };
  window.dispatchEvent(new CustomEvent(APP_TAKES_TAPS_EVENT, { detail: receive }));
}
