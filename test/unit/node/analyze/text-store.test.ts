import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { storedJson, TextStore } from '../../../../src/node/analyze/text-store';

const texts = ['<p>plain</p>', 'Zürich — “quoted” → 日本語 🚀', '', 'x'.repeat(100_000)];

describe('the text store', () => {
  it('gives back every text as it was put, from memory and from its file alike', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'texts-'));
    const inMemory = new TextStore(dir);
    const onDisk = new TextStore(dir, 0);
    const stored = texts.map((text) => [inMemory.put(text), onDisk.put(text)] as const);
    // Read back in another order than they were written.
    for (const [i, [held, written]] of [...stored.entries()].reverse()) {
      expect(held.read()).toBe(texts[i]);
      expect(written.read()).toBe(texts[i]);
    }
    expect(storedJson(onDisk, { sections: [{ text: texts[1] }] }).read()).toEqual({ sections: [{ text: texts[1] }] });
    inMemory.close();
    onDisk.close();
  });

  it('spills past its budget, leaves no file in its folder, and cannot be read once closed', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'texts-'));
    const store = new TextStore(dir, 10);
    const first = store.put('0123456789');
    const second = store.put('past the budget');
    expect(second.read()).toBe('past the budget');
    // The file was removed as soon as it was opened: nothing is left behind, whatever way the build ends.
    expect(await readdir(dir)).toEqual([]);
    store.close();
    expect(first.read()).toBe('0123456789');
    expect(() => second.read()).toThrow(/closed/);
    expect(() => store.put('more')).toThrow(/closed/);
  });
});
