import { createHighlighter } from 'shiki';
import { describe, expect, it } from 'vitest';
import {
  HIGHLIGHT_LANGUAGES,
  isKnownLanguage,
  isPlainLanguage,
  LANGUAGE_NAMES,
} from '../../../../../src/node/render/highlight/languages';

describe('the languages', () => {
  it("knows exactly the language names shiki has once the build's languages are loaded", async () => {
    const shiki = await createHighlighter({ themes: [], langs: [...HIGHLIGHT_LANGUAGES] });
    expect([...LANGUAGE_NAMES].sort()).toEqual([...shiki.getLoadedLanguages()].sort());
    expect(isKnownLanguage('JS')).toBe(true);
    expect(isKnownLanguage('text')).toBe(true);
    expect(isKnownLanguage('cobol')).toBe(false);
    expect(['text', 'plaintext', 'txt', '', 'cobol'].every(isPlainLanguage)).toBe(true);
    expect(isPlainLanguage('JS')).toBe(false);
  });
});
