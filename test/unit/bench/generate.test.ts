import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateFiles, generateTree } from '../../../bench/generate';
import { buildTree, makeTree, messages } from '../../helpers/tree';

const roots: string[] = [];
const tree = async () => {
  const root = await makeTree({});
  roots.push(root);
  return root;
};

describe('bench tree generator', () => {
  afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

  it('is deterministic: the same count and seed give the same files, another seed other files', () => {
    const first = generateFiles(60, 7);
    expect([...generateFiles(60, 7)]).toEqual([...first]);
    expect([...generateFiles(60, 8)]).not.toEqual([...first]);
  });

  it('writes exactly the requested number of pages into nested section folders', async () => {
    const root = await tree();
    const dir = path.join(root, 'content');
    expect(await generateTree(dir, 120)).toBe(120);
    const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.md'));
    expect(files).toHaveLength(120);
    expect(files.some((f) => f.split(path.sep).length === 3)).toBe(true);
  });

  it('gives every page a title, a description, 8 headings, 3 code blocks in 3 languages and 10 links', () => {
    for (const text of generateFiles(40).values()) {
      expect(text).toMatch(/^---\ntitle: ".+"\ndescription: ".+"\n---\n/);
      expect(text.match(/^#{2,3} /gm)).toHaveLength(8);
      const languages = [...text.matchAll(/^```(\w+)$/gm)].map((m) => m[1]);
      expect(new Set(languages).size).toBe(3);
      const links = text.replace(/```[\s\S]*?```/g, '').match(/\]\((?!https?:)[^)]+\)/g) ?? [];
      expect(links).toHaveLength(10);
      expect(links.some((l) => l.includes('#'))).toBe(true);
      const prose = text.replace(/^---[\s\S]*?---/, '').replace(/```[\s\S]*?```/g, '');
      const words = prose.split(/\s+/).filter((w) => /\w/.test(w)).length;
      expect(words).toBeGreaterThan(450);
      expect(words).toBeLessThan(850);
    }
  });

  it('builds strictly with the real build: every link and anchor resolves, no diagnostics', async () => {
    const root = await tree();
    await generateTree(path.join(root, 'content'), 50);
    const result = await buildTree(root);
    expect(messages(result)).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.pages).toBe(50);
  });
});
