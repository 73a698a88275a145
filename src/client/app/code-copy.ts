import { useEffect, type RefObject } from 'react';

/** The copy buttons are in the prerendered HTML; this makes them work once the app runs. */
export function useCodeCopy(content: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const root = content.current;
    if (!root) return;
    const onClick = (event: MouseEvent) => {
      const button = event.target instanceof Element ? event.target.closest('button.copy-code') : null;
      const code = button?.closest('.code-block')?.querySelector('pre code');
      if (!button || !code) return;
      const text = code.textContent ?? '';
      const done = (label: string) => {
        button.textContent = label;
        setTimeout(() => (button.textContent = 'Copy'), 1500);
      };
      navigator.clipboard.writeText(text).then(
        () => done('Copied'),
        () => done('Copy failed'),
      );
    };
    root.addEventListener('click', onClick);
    return () => root.removeEventListener('click', onClick);
  }, [content]);
}
