import { useEffect, useState, type RefObject } from 'react';
import { SCROLL_THROTTLE_MS } from '../../shared/constants';
import type { PageHeader } from '../../shared/types';
import { useScreenStore } from '../data/screen';
import { HEADING_CHOSEN_EVENT } from './links';
import { replaceHash } from './navigation-loader';
import { afterPaint } from './next-task';

/** Headings whose top is within this distance of the viewport top count as being read. */
const READING_LINE_PX = 96;

/**
 * Tracks the heading being read: scroll handling throttled to 300 ms; the URL hash follows
 * with a replacing navigation (never a new entry); at the top the hash is cleared; at the bottom the last
 * heading is active; a heading chosen from the table of contents wins until the scroll it started ends.
 */
export function useActiveHeading(content: RefObject<HTMLElement | null>, headers: PageHeader[]): string {
  const [active, setActive] = useState('');
  const screen = useScreenStore();

  useEffect(() => {
    let pending: ReturnType<typeof setTimeout> | undefined;
    let chosen: string | undefined;
    let chosenUntil = 0;

    const update = () => {
      pending = undefined;
      const root = content.current;
      if (!root || headers.length === 0) return;
      // A navigation under way owns the location (the router's is already its target): a reading of the
      // page being left would replace it, landing the reader on the new page at the old scroll.
      if (screen.getState().pending) return;
      let current = '';
      if (chosen && Date.now() < chosenUntil) {
        current = chosen;
      } else {
        chosen = undefined;
        const atBottom = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
        if (atBottom) current = headers[headers.length - 1]?.slug ?? '';
        else {
          for (const h of headers) {
            const element = document.getElementById(h.slug);
            if (element && element.getBoundingClientRect().top <= READING_LINE_PX) current = h.slug;
            else if (element) break;
          }
        }
      }
      setActive(current);
      if (decodeURIComponent(window.location.hash.slice(1)) !== current) {
        replaceHash(current);
      }
    };

    const onScroll = () => {
      if (pending === undefined) pending = setTimeout(update, SCROLL_THROTTLE_MS);
    };
    const onChosen = (event: Event) => {
      chosen = (event as CustomEvent<string>).detail;
      chosenUntil = Date.now() + SCROLL_THROTTLE_MS * 3;
      setActive(chosen);
    };

    // Arriving at a #heading is choosing it: the router's scroll to it wins over the first reading, which
    // on a slow device may come before that scroll and would clear the hash.
    const arrivedAt = decodeURIComponent(window.location.hash.slice(1));
    if (headers.some((h) => h.slug === arrivedAt))
      onChosen(new CustomEvent(HEADING_CHOSEN_EVENT, { detail: arrivedAt }));
    // The first reading reads the layout: once the page has been painted, not before its first frame.
    const cancelFirst = afterPaint(update);
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener(HEADING_CHOSEN_EVENT, onChosen);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener(HEADING_CHOSEN_EVENT, onChosen);
      if (pending !== undefined) clearTimeout(pending);
      cancelFirst();
    };
  }, [content, headers, screen]);

  return active;
}
