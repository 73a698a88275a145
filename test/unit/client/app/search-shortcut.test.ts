import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dropEarlyTyping, earlyQuery, earlyQueryShown } from '../../../../src/client/app/search-shortcut';

/**
 * What the boot script keeps of early typing lives on <html>'s dataset, and the app tells the boot script
 * it took it with an event on window: the two are given here as the browser has them (a dataset is a
 * plain string map, window an event target), with nothing else of a page.
 */
let dataset: Record<string, string>;
let taken: number;

beforeEach(() => {
  dataset = {};
  taken = 0;
  const window = new EventTarget();
  window.addEventListener('docs:search-typing-taken', () => taken++);
  vi.stubGlobal('window', window);
  vi.stubGlobal('document', { documentElement: { dataset } });
});

afterEach(() => {
  // Whatever a test left taken is let go, as search closing does.
  dropEarlyTyping();
  vi.unstubAllGlobals();
});

describe("the search dialog's first query, typed before the app", () => {
  it('is the same for a render React throws away and the render after it', () => {
    dataset['searchTyped'] = 'guide';
    expect(earlyQuery()).toBe('guide');
    // The boot script stops keeping typing once the dialog's first render took it.
    expect(dataset['searchTyped']).toBeUndefined();
    expect(taken).toBe(1);
    expect(earlyQuery()).toBe('guide');
  });

  it('is not offered again once the dialog is there: the next dialog starts from what is typed by then', () => {
    dataset['searchTyped'] = 'guide';
    expect(earlyQuery()).toBe('guide');
    earlyQueryShown();
    expect(earlyQuery()).toBe('');
  });

  it('is let go when search closes before its dialog was there', () => {
    dataset['searchTyped'] = 'wor';
    expect(earlyQuery()).toBe('wor');
    dropEarlyTyping();
    dataset['searchTyped'] = 'api';
    expect(earlyQuery()).toBe('api');
  });

  it('is empty when nothing was typed', () => {
    expect(earlyQuery()).toBe('');
    expect(earlyQuery()).toBe('');
  });
});
