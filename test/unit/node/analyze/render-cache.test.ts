import { readdirSync, readFileSync, statSync } from 'node:fs';
import { rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BuildResult } from '../../../../src/node/build';
import { buildOutput } from '../../../helpers/output';
import { OTHER_PIXEL, PIXEL } from '../../../helpers/png';
import { buildTree, makeTree, messages } from '../../../helpers/tree';

const site = {
  'README.md': '# Home\n\nSee [the guide](./guide.md) and [the diagram page](./picture.md).\n',
  'guide.md': '# Guide\n\nSome text.\n\n```js\nconst answer = 42;\n```\n\n## Setup\n\nMore text.\n',
  'picture.md': '# Picture\n\n![A diagram](./diagram.png)\n',
  'diagram.png': PIXEL,
  'other.md': '# Other\n\nPlain.\n',
};

/**
 * A site with problems of every kind in `--no-strict`: the page pass's (a missing image, an unknown code
 * language, an unknown constant, a removed scheme and attribute, a page without a title, a page that only
 * redirects) and the site stage's (links and anchors that lead nowhere).
 */
const troubled = {
  ...site,
  'README.md': '# Home\n\nSee [the guide](./guide.md) and [the diagram page](./picture.md).\n',
  'troubled.md': [
    '# Troubled',
    '',
    '![Missing](./missing.png)',
    '',
    '```fortran77\nPRINT *, 1\n```',
    '',
    '[gone](/gone/) {{ LIMT }}',
    '',
    '[setup](./guide.md#set-up) and [script](javascript:alert(1))',
    '',
    'More on [details](/gone/#details).',
    '',
    '<span onclick="go()">Click</span>',
    '',
  ].join('\n'),
  'untitled.md': '![No heading](./nope.png) here.\n',
  'moved.md': '<script>location.href = "/guide/"</script>\n',
};

/** A page for `troubled.md`'s links that lead nowhere. */
const GONE = '# Back\n\n## Details\n';
const brokenToGone = (result: BuildResult) => messages(result).filter((m) => m.includes('/gone/'));

/** The render cache's index lines of one kind (`p`: pages, `f`: file stamps), split in their fields. */
function indexLines(root: string, kind: 'p' | 'f'): string[][] {
  const lines = readFileSync(path.join(root, '.cache/pages/index.jsonl'), 'utf8').trim().split('\n').slice(1);
  return lines.map((line) => line.split('\t')).filter((fields) => fields[0] === kind);
}

/** The pages the render cache holds, as its index lists them. */
function cachedPages(root: string): { record: { route: string } }[] {
  return indexLines(root, 'p').map((fields) => JSON.parse(fields[3] ?? '') as ReturnType<typeof cachedPages>[0]);
}

/** A cold `--no-strict` build of `files` in a fresh tree: its folder and its result. */
async function coldBuild(files: Record<string, string | Uint8Array>): Promise<{ root: string; result: BuildResult }> {
  const root = await makeTree(files);
  const result = await buildTree(root, { strict: false });
  // Every page file is rendered, the one that only redirects too.
  expect(result.rendered).toBe(result.pages + 1);
  return { root, result };
}

/** Builds `root`, then the same content again from scratch in a copy, and expects both outputs to be the same. */
async function expectSameAsCold(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  const cold = await makeTree(files);
  const result = await buildTree(cold);
  expect(result.rendered).toBe(result.pages);
  expect(await buildOutput(root)).toEqual(await buildOutput(cold));
}

describe('the render cache', () => {
  it('takes unchanged pages from the last build, and the site comes out as a cold build makes it', async () => {
    const root = await makeTree(site);
    const first = await buildTree(root);
    expect(messages(first)).toEqual([]);
    expect(first.rendered).toBe(4);
    expect(readdirSync(path.join(root, '.cache')).sort()).toEqual(['highlight.json', 'output', 'pages']);

    // Where a twin differs from its page (the home page's links) matters only while the twin is made.
    expect(readFileSync(path.join(root, '.cache/pages/index.jsonl'), 'utf8')).not.toContain('twinEdits');

    const second = await buildTree(root);
    expect(second.rendered).toBe(0);
    expect(second.pages).toBe(4);
    await expectSameAsCold(root, site);
    // The highlight cache keeps the code of the pages it did not see again.
    const highlight = JSON.parse(readFileSync(path.join(root, '.cache/highlight.json'), 'utf8')) as {
      entries: Record<string, string>;
    };
    expect(Object.keys(highlight.entries)).toHaveLength(1);
  });

  it('renders again a page whose file changed, a page whose image changed, and nothing else', async () => {
    const root = await makeTree(site);
    await buildTree(root);

    const guide = '# Guide\n\nSome other text.\n\n```js\nconst answer = 43;\n```\n';
    await writeFile(path.join(root, 'content/guide.md'), guide);
    const edited = await buildTree(root);
    expect(edited.rendered).toBe(1);
    expect(readFileSync(path.join(root, 'dist/guide/index.html'), 'utf8')).toContain('Some other text.');
    await expectSameAsCold(root, { ...site, 'guide.md': guide });

    await writeFile(path.join(root, 'content/diagram.png'), OTHER_PIXEL);
    const repainted = await buildTree(root);
    expect(repainted.rendered).toBe(1);
    await expectSameAsCold(root, { ...site, 'guide.md': guide, 'diagram.png': OTHER_PIXEL });
  });

  it('knows a page file touched but unchanged by its new time from then on', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    const guide = path.join(root, 'content/guide.md');
    const touched = new Date(Date.now() + 60_000);
    await utimes(guide, touched, touched);
    expect((await buildTree(root)).rendered).toBe(0);
    // Its stamp (size, time, digest) spares reading it again.
    const timeOf = (file: string) => Number(indexLines(root, 'f').find((fields) => fields[5] === file)?.[3]);
    expect(timeOf(guide)).toBe(statSync(guide).mtimeMs);
    expect(timeOf(path.join(root, 'content/other.md'))).toBe(statSync(path.join(root, 'content/other.md')).mtimeMs);
  });

  it('keeps the name of a fragment whose links it pointed to renamed headings, until they lead elsewhere', async () => {
    const files = {
      'README.md': '# Home\n\nSee [the history](./b.md#event-execution-history).\n',
      'b.md': '# Beta\n\n## Event / Execution History\n\nText.\n',
    };
    const root = await makeTree(files);
    expect(messages(await buildTree(root))).toEqual([]);
    const fragment = () => {
      const names = readdirSync(path.join(root, 'dist/assets/js')).filter((name) =>
        /^page\.index\.\w+\.html$/.test(name),
      );
      expect(names).toHaveLength(1);
      return names[0] ?? '';
    };
    const kept = fragment();
    expect(readFileSync(path.join(root, 'dist/assets/js', kept), 'utf8')).toContain(
      'href="/docs/b/#event--execution-history"',
    );
    expect((await buildTree(root)).rendered).toBe(0);
    expect(fragment()).toBe(kept);
    await expectSameAsCold(root, files);

    // The heading gets another id of its own; the page that links to it is unchanged, and kept.
    const renamed = { ...files, 'b.md': '# Beta\n\n## Event - Execution History\n\nText.\n' };
    await writeFile(path.join(root, 'content/b.md'), renamed['b.md']);
    expect((await buildTree(root)).rendered).toBe(1);
    const now = fragment();
    expect(now).not.toBe(kept);
    expect(readFileSync(path.join(root, 'dist/assets/js', now), 'utf8')).toContain(
      'href="/docs/b/#event---execution-history"',
    );
    await expectSameAsCold(root, renamed);
  });

  it('renders every page again when a setting that changes HTML changes, and a constant’s pages when it does', async () => {
    const files = { ...site, 'limits.md': '# Limits\n\nUp to {{ LIMIT }} runs.\n', '_site.yaml': 'title: Docs\n' };
    const root = await makeTree(files);
    await buildTree(root, { strict: false });
    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Docs\nconstants:\n  LIMIT: 10\n');
    const defined = await buildTree(root, { strict: false });
    expect(defined.rendered).toBe(1);
    expect(readFileSync(path.join(root, 'dist/limits/index.html'), 'utf8')).toContain('Up to 10 runs.');
    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Docs\nconstants:\n  LIMIT: 20\n  OTHER: 1\n');
    const changed = await buildTree(root, { strict: false });
    expect(changed.rendered).toBe(1);
    expect(readFileSync(path.join(root, 'dist/limits/index.html'), 'utf8')).toContain('Up to 20 runs.');
    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Docs\nlineNumbers: true\nconstants:\n  LIMIT: 20\n');
    const reconfigured = await buildTree(root, { strict: false });
    expect(reconfigured.rendered).toBe(reconfigured.pages);
  });

  it('keeps a page with its problems: a warm build reports what a cold one does and renders nothing', async () => {
    const root = await makeTree(troubled);
    const cold = await buildTree(root, { strict: false });
    const reported = messages(cold);
    // Problems of the page pass and of the site stage, several in one file and two at one place.
    expect(reported.filter((m) => m.startsWith('troubled.md:'))).toHaveLength(8);
    expect(reported.filter((m) => m.startsWith('untitled.md:1:1 '))).toHaveLength(2);
    expect(reported).toHaveLength(11);

    const warm = await buildTree(root, { strict: false });
    expect(warm.rendered).toBe(0);
    expect(messages(warm)).toEqual(reported);
    expect(warm.diagnostics).toEqual(cold.diagnostics);
    expect(await buildOutput(root)).toEqual(await buildOutput((await coldBuild(troubled)).root));

    // One page changed: the others come from the cache with their problems, as they were.
    await writeFile(path.join(root, 'content/other.md'), '# Other\n\nChanged.\n');
    const changed = await buildTree(root, { strict: false });
    expect(changed.rendered).toBe(1);
    expect(messages(changed)).toEqual(reported);
  });

  it('clears a kept page’s broken-link warning once the page it leads to is written', async () => {
    const root = await makeTree(troubled);
    await buildTree(root, { strict: false });
    expect(brokenToGone(await buildTree(root, { strict: false }))).toHaveLength(2);

    // Only the new page is rendered; the site stage checks the kept page's links against it.
    await writeFile(path.join(root, 'content/gone.md'), GONE);
    const created = await buildTree(root, { strict: false });
    expect(created.rendered).toBe(1);
    expect(brokenToGone(created)).toEqual([]);
    expect(messages(created)).toEqual(messages((await coldBuild({ ...troubled, 'gone.md': GONE })).result));
  });

  it('reports a kept page’s links broken once the heading or the page they lead to is removed', async () => {
    const root = await makeTree({ ...troubled, 'gone.md': GONE });
    expect(brokenToGone(await buildTree(root, { strict: false }))).toEqual([]);

    await writeFile(path.join(root, 'content/gone.md'), '# Back\n');
    const headingRemoved = await buildTree(root, { strict: false });
    expect(headingRemoved.rendered).toBe(1);
    expect(brokenToGone(headingRemoved)).toEqual([
      'troubled.md:13:9 warning: broken anchor "/gone/#details": /gone/ has no heading #details',
    ]);

    await rm(path.join(root, 'content/gone.md'));
    await rm(path.join(root, 'content/guide.md'));
    const removed = await buildTree(root, { strict: false });
    expect(removed.rendered).toBe(0);
    expect(brokenToGone(removed)).toHaveLength(2);
    expect(messages(removed)).toContain('README.md:3:5 warning: broken link "./guide.md": no page at /guide/');
    const { 'guide.md': _guide, ...rest } = troubled;
    expect(messages(removed)).toEqual(messages((await coldBuild(rest)).result));
  });

  it('renders again a page whose missing image appears, and its warning goes', async () => {
    const root = await makeTree(troubled);
    await buildTree(root, { strict: false });
    await writeFile(path.join(root, 'content/missing.png'), PIXEL);
    const found = await buildTree(root, { strict: false });
    expect(found.rendered).toBe(1);
    expect(messages(found).filter((m) => m.includes('missing.png'))).toEqual([]);
    expect(messages(found)).toEqual(messages((await coldBuild({ ...troubled, 'missing.png': PIXEL })).result));
  });

  it('renders again a page with an error, which fails every build until it is fixed', async () => {
    const root = await makeTree({ ...site, 'bad.md': '# Bad\n\n![Missing](./missing.png)\n' });
    const first = await buildTree(root);
    expect(first.ok).toBe(false);
    const again = await buildTree(root);
    expect(again.ok).toBe(false);
    // The page with the error alone: the failed build kept the others, their code highlighted with them.
    expect(again.rendered).toBe(1);
    expect(messages(again)).toEqual(messages(first));
  });

  it('keeps the pages of a build another page failed, their code highlighted', async () => {
    const root = await makeTree({ ...site, 'bad.md': '# Bad\n\n![Missing](./missing.png)\n' });
    expect((await buildTree(root)).ok).toBe(false);
    await rm(path.join(root, 'content/bad.md'));
    const fixed = await buildTree(root);
    expect(messages(fixed)).toEqual([]);
    expect(fixed.rendered).toBe(0);
    const guide = readFileSync(path.join(root, 'dist/guide/index.html'), 'utf8');
    expect(guide).toMatch(/<span class="c-[0-9a-f]+-[0-9a-f]+">const<\/span>/);
    await expectSameAsCold(root, site);
  });

  it('is only a speed-up: a damaged index or a lost segment makes the build render those pages again', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    const cacheDir = path.join(root, '.cache/pages');

    const segments = readdirSync(cacheDir).filter((name) => name.startsWith('segment.'));
    for (const segment of segments) await rm(path.join(cacheDir, segment));
    const lost = await buildTree(root);
    expect(messages(lost)).toEqual([]);
    expect(lost.rendered).toBe(4);

    // The list of the cached pages' search terms, the index's last line, is part of it.
    const index = readFileSync(path.join(cacheDir, 'index.jsonl'), 'utf8');
    await writeFile(path.join(cacheDir, 'index.jsonl'), index.slice(0, index.lastIndexOf('\nt\t') + 1));
    const noTerms = await buildTree(root);
    expect(messages(noTerms)).toEqual([]);
    expect(noTerms.rendered).toBe(4);

    await writeFile(path.join(cacheDir, 'index.jsonl'), '{"identity": "cut off');
    const damaged = await buildTree(root);
    expect(messages(damaged)).toEqual([]);
    expect(damaged.rendered).toBe(4);
    await expectSameAsCold(root, site);
  });

  it('forgets pages no build used for a while, and keeps its segments few however many builds change a page', async () => {
    const root = await makeTree(site);
    await buildTree(root);
    for (let i = 0; i < 12; i++) {
      // Each revision has a word no other has had, which the cache's list of search terms adds.
      await writeFile(path.join(root, 'content/other.md'), `# Other\n\nRevision ${'xyz'.repeat(i + 1)}.\n`);
      expect((await buildTree(root)).rendered).toBe(1);
    }
    const cacheDir = path.join(root, '.cache/pages');
    expect(readdirSync(cacheDir).filter((name) => name.startsWith('segment.')).length).toBeLessThanOrEqual(8);
    // The last revisions are kept a while (a version beside the site may have them).
    expect(cachedPages(root).length).toBeGreaterThan(4);
    expect(cachedPages(root).length).toBeLessThan(4 + 12);
    await rm(path.join(root, 'content/other.md'));
    for (let i = 0; i < 8; i++) {
      const removed = await buildTree(root);
      expect(removed.pages).toBe(3);
      expect(removed.rendered).toBe(0);
    }
    const listed = cachedPages(root).map((page) => page.record.route);
    expect(listed.sort()).toEqual(['/', '/guide/', '/picture/']);
    const { 'other.md': _removed, ...rest } = site;
    await expectSameAsCold(root, rest);
  });
});
