/**
 * Whether the window is scrolled to its top, kept from its scroll events: read at a navigation instead,
 * the position would make the browser lay the new page out before its first frame.
 */
let atTop = true;
let following = false;

export function followWindowTop(): void {
  if (following) return;
  following = true;
  atTop = window.scrollY <= 0;
  window.addEventListener('scroll', () => (atTop = window.scrollY <= 0), { passive: true });
}

export const windowAtTop = (): boolean => atTop;
