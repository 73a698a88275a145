import { createHighlighter } from 'shiki';
import { describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_LANGUAGES,
  isKnownLanguage,
  isPlainLanguage,
  LANGUAGE_NAMES,
} from '../../../../src/node/highlight/languages';

describe('the languages', () => {
  it('knows every language name shiki bundles, and loads the common ones first', async () => {
    const shiki = await createHighlighter({ themes: [], langs: [...HIGHLIGHT_LANGUAGES] });
    for (const loaded of shiki.getLoadedLanguages()) expect(LANGUAGE_NAMES.has(loaded)).toBe(true);
    expect([...LANGUAGE_NAMES]).toEqual(expect.arrayContaining(['vue', 'vue-html', 'nginx', 'cobol', 'sh']));
    expect(isKnownLanguage('JS')).toBe(true);
    expect(isKnownLanguage('vue')).toBe(true);
    expect(isKnownLanguage('text')).toBe(true);
    expect(isKnownLanguage('klingon')).toBe(false);
    expect(isKnownLanguage('js-vue')).toBe(false);
    expect(['text', 'plaintext', 'txt', '', 'klingon'].every(isPlainLanguage)).toBe(true);
    expect(isPlainLanguage('JS')).toBe(false);
  });
});
