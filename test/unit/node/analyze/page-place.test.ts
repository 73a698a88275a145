import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { BASE_PLACEHOLDER, basedText } from '../../../../src/node/analyze/page-place';
import { heldText, textBytes, TextStore } from '../../../../src/node/analyze/text-store';

const P = BASE_PLACEHOLDER;
const texts = [
  'no link at all — “quoted” 日本語',
  `[Start](${P}guide/) then [Zürich 🚀](${P}places/zürich/)`,
  `${P}${P}`,
  `ends with ${P}`,
  '',
];

describe('a text served under a base', () => {
  it('reads as the same bytes as its string, stored or held, under any base', async () => {
    const store = new TextStore(await mkdtemp(path.join(os.tmpdir(), 'based-')));
    for (const base of ['/docs/', '/', '/dökumente/v1/']) {
      for (const text of texts) {
        const expected = text.replaceAll(P, base);
        for (const stored of [store.put(text), heldText(text)]) {
          const based = basedText(stored, base);
          expect(based.read()).toBe(expected);
          expect(textBytes(based).equals(Buffer.from(expected, 'utf8'))).toBe(true);
        }
      }
    }
    store.close();
  });
});
