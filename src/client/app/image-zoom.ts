/**
 * A screenshot wider than the article, shown at full size over the page: a modal <dialog>, so Escape,
 * the focus trap and giving focus back to the image's link are the browser's own. A click anywhere or
 * the close button closes it. Loaded on the first click on such an image (links.ts).
 */
export function showFullSize(link: HTMLAnchorElement): void {
  const source = link.querySelector('img');
  const dialog = document.createElement('dialog');
  dialog.className = 'zoom-dialog';
  dialog.setAttribute('aria-label', source?.alt ? `${source.alt}, full size` : 'Image at full size');
  const close = document.createElement('button');
  close.type = 'button';
  close.className = 'zoom-close';
  close.textContent = 'Close';
  const image = document.createElement('img');
  image.src = link.href;
  image.alt = source?.alt ?? '';
  if (source?.width && source.height) {
    image.width = Number(source.getAttribute('width')) || source.width;
    image.height = Number(source.getAttribute('height')) || source.height;
  }
  dialog.append(close, image);
  dialog.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
}
