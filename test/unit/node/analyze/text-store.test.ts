import { readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { heldText, TextStore } from '../../../../src/node/analyze/text-store';

const texts = ['<p>plain</p>', 'Zürich — “quoted” → 日本語 🚀', '', 'x'.repeat(100_000)];

describe('the text store', () => {
  it('gives back every text as it was put, by its place too, and a JSON value', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'texts-'));
    const store = new TextStore(dir);
    const stored = texts.map((text) => store.put(text));
    // Read back in another order than they were written.
    for (const [i, text] of [...stored.entries()].reverse()) {
      expect(text.read()).toBe(texts[i]);
      expect(store.at(text.place).read()).toBe(texts[i]);
      expect(store.placeOf(text)).toEqual(text.place);
    }
    // A text held elsewhere is put when its place is asked for.
    const held = store.placeOf(heldText('held'));
    expect(store.bytes(held).toString('utf8')).toBe('held');
    // Bytes held in memory are written as they are, and read as the text they encode.
    const bytes = heldText(Buffer.from('“held” bytes'));
    expect(store.bytes(store.placeOf(bytes)).toString('utf8')).toBe('“held” bytes');
    expect(bytes.read()).toBe('“held” bytes');
    store.close();
  });

  it('leaves no segment a cache does not name once closed, and cannot be read then', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'texts-'));
    const store = new TextStore(dir);
    const text = store.put('some text');
    expect(await readdir(path.join(dir, 'pages'))).toHaveLength(1);
    store.keepIfNamed(new Set(['segment.another.bin']));
    store.close();
    expect(await readdir(path.join(dir, 'pages'))).toEqual([]);
    expect(() => text.read()).toThrow(/closed/);
    expect(() => store.put('more')).toThrow(/closed/);
  });

  it('keeps its segment for the cache that names it, readable by the next store of the folder', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'texts-'));
    const store = new TextStore(dir);
    const text = store.put('kept text');
    store.keepIfNamed(new Set([text.place[0]]));
    store.close();
    const next = new TextStore(dir);
    expect(next.at(text.place).read()).toBe('kept text');
    next.close();
    expect(await readdir(path.join(dir, 'pages'))).toEqual([text.place[0]]);
  });
});
