import { describe, expect, it } from 'vitest';
import { excerpt } from '../../../src/node/excerpt';

describe('excerpt', () => {
  it('keeps a text that fits', () => {
    expect(excerpt('Short enough.', 20)).toBe('Short enough.');
  });

  it('cuts at the last word that fits, without the punctuation before the ellipsis', () => {
    expect(excerpt('Workflows run on triggers, steps and schedules.', 30)).toBe('Workflows run on triggers…');
  });

  it('cuts inside a word when the last space is early in the text', () => {
    expect(excerpt('An extraordinarilylongwordwithoutspaces', 20)).toBe('An extraordinarilylo…');
  });
});
