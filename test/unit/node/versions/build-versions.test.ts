import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../../../src/shared/types';
import { buildOutput } from '../../../helpers/output';
import { buildTree, makeTree, messages } from '../../../helpers/tree';
import { CURRENT_AND_V1 } from '../../../helpers/versions';

/** The current site (v2) and an older one beside it (v1) with pages of its own and an old broken link. */
const SITE = {
  '_site.yaml': `title: Versioned Docs
siteUrl: https://docs.example.com
announcement: { id: launch, text: We launched }
${CURRENT_AND_V1}`,
  'README.md': '# Home\n\nSee the [guide](guide.md).\n',
  'guide.md': '# Guide\n\nThe new guide. Uniquely-current wording.\n',
  'new.md': '# New\n\nOnly in v2.\n',
  '../v1/_site.yaml': 'title: Old title\nbase: /elsewhere/\nredirects:\n  /setup/: /guide/\n',
  '../v1/README.md': '# Home v1\n\nSee the [guide](guide.md).\n',
  '../v1/guide.md': '# Guide v1\n\nThe old guide. Uniquely-older wording. The [new page](/new/) is not in v1.\n',
};

/** v1's link to a page only v2 has: a warning at its file and line, which says what to write instead. */
const V1_LINK_TO_V2 =
  '../v1/guide.md:3:44 warning: cross-version link "/new/": /new/ is a page of v2, not of v1; ' +
  "link a page of v1, or write v2's full address (https://docs.example.com/docs/new/)";

const read = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
const manifestOf = (root: string, folder: string) => JSON.parse(read(root, `${folder}/manifest.json`)) as Manifest;

/**
 * Every file of a folder with its modification time, to see which ones a build left alone. With `made`,
 * only the files made from the pages (their documents, fragments, twins and search data): the few small
 * files without a key (the pointer, redirect stubs, `_redirects`) are written by every build of any site.
 */
function times(dir: string, made = false): Map<string, number> {
  const found = new Map<string, number>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file);
    if (made && !/^(assets\/|index\.|guide)/.test(relative)) continue;
    found.set(relative, statSync(file).mtimeMs);
  }
  return found;
}

describe('a site with a version built from another folder', () => {
  it('builds each version at its route, with its own pages, links, search data and settings', async () => {
    const root = await makeTree(SITE);
    const result = await buildTree(root);
    // The old version's broken link is a warning, located in its own folder.
    expect(messages(result)).toEqual([V1_LINK_TO_V2]);
    expect(result.ok).toBe(true);
    expect(result.pages).toBe(5);
    expect(existsSync(path.join(root, 'dist/v1/guide/index.html'))).toBe(true);
    expect(existsSync(path.join(root, 'dist/v1/new/index.html'))).toBe(false);
    // The version's redirects are its own, under its route, and in the one table a host reads.
    expect(read(root, 'dist/v1/setup/index.html')).toContain('url=/docs/v1/guide/');
    expect(read(root, 'dist/_redirects')).toContain('/docs/v1/setup/ /docs/v1/guide/ 301');
    expect(read(root, 'dist/_redirects.nginx')).toContain('location = "/docs/v1/setup/" { return 301 "/docs/v1/guide/');

    const v1 = manifestOf(root, 'manifest/v1');
    expect(v1.site.base).toBe('/docs/v1/');
    // The current site's title and announcement, not the version's own.
    expect(v1.site.title).toBe('Versioned Docs');
    expect(v1.site.announcement?.id).toBe('launch');
    expect(v1.site.versions).toEqual([
      { text: 'v2', link: '/docs/', badge: 'New', current: true, built: true },
      { text: 'v1', link: '/docs/v1/', built: true },
    ]);
    expect(v1.pages.map((page) => page.path).sort()).toEqual(['/', '/guide/']);
    expect(manifestOf(root, 'manifest').site.versions).toEqual(v1.site.versions);

    // Each version's search data has its own pages' words only.
    const words = (folder: string) =>
      readdirSync(path.join(root, folder, 'search'))
        .map((file) => read(root, `${folder}/search/${file}`))
        .join('');
    expect(words('manifest/v1')).toContain('uniquelyolder');
    expect(words('manifest/v1')).not.toContain('uniquelycurrent');
    expect(words('manifest')).toContain('uniquelycurrent');
    expect(words('manifest')).not.toContain('uniquelyolder');

    // An older version is kept out of search engines: noindex, and only the current one in sitemap and llms.
    const v1Page = read(root, 'dist/v1/guide/index.html');
    expect(v1Page).toContain('<link rel="canonical" href="https://docs.example.com/docs/v1/guide/">');
    expect(v1Page).toContain('<meta name="robots" content="noindex">');
    expect(read(root, 'dist/guide/index.html')).not.toContain('noindex');
    expect(read(root, 'dist/sitemap.xml')).not.toContain('/v1/');
    expect(read(root, 'dist/sitemap.xml')).toContain('https://docs.example.com/docs/guide/');
    expect(read(root, 'dist/llms.txt')).not.toContain('/v1/');
    expect(existsSync(path.join(root, 'dist/v1/sitemap.xml'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/v1/llms.txt'))).toBe(false);
  });

  it('lets a listed older version be indexed, with its own sitemap.xml and llms.txt', async () => {
    const listed = SITE['_site.yaml'].replace('    strict: false\n', '    strict: false\n    listed: true\n');
    const root = await makeTree({ ...SITE, '_site.yaml': listed });
    expect((await buildTree(root)).ok).toBe(true);
    expect(read(root, 'dist/v1/guide/index.html')).not.toContain('noindex');
    expect(read(root, 'dist/v1/sitemap.xml')).toContain('https://docs.example.com/docs/v1/guide/');
    expect(read(root, 'dist/v1/llms.txt')).toContain('Guide v1');
    expect(read(root, 'dist/sitemap.xml')).not.toContain('/v1/');
  });

  it('keeps an untouched version as it is when the current one changes, and drops a version no longer built', async () => {
    const root = await makeTree(SITE);
    expect((await buildTree(root)).ok).toBe(true);
    const before = times(path.join(root, 'dist/v1'), true);
    await writeFile(path.join(root, 'content/guide.md'), '# Guide\n\nThe new guide, edited.\n');
    const again = await buildTree(root);
    expect(again.ok).toBe(true);
    expect(times(path.join(root, 'dist/v1'), true)).toEqual(before);
    // Only the edited page is analyzed again; v1 is not built at all, and its warning is still reported.
    expect(again.rendered).toBe(1);
    expect(again.pages).toBe(5);
    expect(messages(again)).toEqual([V1_LINK_TO_V2]);
    // Its redirects stay in the site's table, read from its kept files.
    expect(read(root, 'dist/_redirects.nginx')).toContain('"/docs/v1/setup"');
    // A version whose outputs someone changed is built again, its redirect table as well.
    await rm(path.join(root, 'dist/v1/_redirects'));
    expect((await buildTree(root)).rendered).toBe(0);
    expect(read(root, 'dist/_redirects')).toContain('/docs/v1/setup/ /docs/v1/guide/ 301');
    await writeFile(path.join(root, 'dist/v1/version.json'), '{}');
    expect((await buildTree(root)).rendered).toBe(0);
    expect(read(root, 'dist/v1/version.json')).toContain('/docs/v1/assets/js/manifest.');

    await writeFile(path.join(root, 'content/_site.yaml'), 'title: Versioned Docs\n');
    expect((await buildTree(root)).ok).toBe(true);
    expect(existsSync(path.join(root, 'dist/v1'))).toBe(false);
    expect(existsSync(path.join(root, 'manifest/v1'))).toBe(false);
  });

  it('builds an older version again when one of its pages changes, or what the current site gives it', async () => {
    const root = await makeTree(SITE);
    expect((await buildTree(root)).ok).toBe(true);
    const v1Guide = () => read(root, 'dist/v1/guide/index.html');
    // A page of v1 edited: v1 is built again (its page made again), its document shows the edit.
    await writeFile(path.join(root, 'v1/guide.md'), '# Guide v1\n\nThe old guide, corrected in v1.\n');
    const edited = await buildTree(root);
    expect(edited.ok).toBe(true);
    expect(edited.rendered).toBe(1);
    expect(v1Guide()).toContain('corrected in v1');
    // The current site's title and announcement are shown around every version's pages: changed, v1's
    // documents change with them, though none of its pages did.
    const before = times(path.join(root, 'dist/v1'), true);
    const config = read(root, 'content/_site.yaml');
    await writeFile(
      path.join(root, 'content/_site.yaml'),
      config.replace('title: Versioned Docs', 'title: Renamed Docs').replace('We launched', 'We moved'),
    );
    const retitled = await buildTree(root);
    expect(retitled.ok).toBe(true);
    expect(retitled.rendered).toBe(0);
    expect(v1Guide()).toContain('Renamed Docs');
    expect(v1Guide()).toContain('We moved');
    expect(v1Guide()).not.toContain('Versioned Docs');
    expect(times(path.join(root, 'dist/v1'), true).get('guide/index.html')).not.toBe(before.get('guide/index.html'));
  });

  it('writes the same versions on prerender threads, which every version renders on in turn, as on its own thread', async () => {
    const [here, onThreads] = [await makeTree(SITE), await makeTree(SITE)];
    expect((await buildTree(here, { prerenderThreads: 0 })).ok).toBe(true);
    expect((await buildTree(onThreads, { prerenderThreads: 2 })).ok).toBe(true);
    const written = await buildOutput(onThreads);
    expect(written).toEqual(await buildOutput(here));
    expect(written.get('dist/v1/guide/index.html')).toContain('Uniquely-older wording');
    expect(written.get('dist/guide/index.html')).toContain('Uniquely-current wording');
  });

  it('fails on a broken link in the current version, and then writes nothing, the older versions either', async () => {
    const root = await makeTree(SITE);
    expect((await buildTree(root)).ok).toBe(true);
    const dist = times(path.join(root, 'dist'));
    await writeFile(path.join(root, 'content/guide.md'), '# Guide\n\nA [broken](/nowhere/) link.\n');
    await writeFile(path.join(root, 'v1/guide.md'), '# Guide v1\n\nChanged.\n');
    const failed = await buildTree(root);
    expect(failed.ok).toBe(false);
    expect(messages(failed)).toEqual(['guide.md:3:3 broken link "/nowhere/": no page at /nowhere/']);
    expect(times(path.join(root, 'dist'))).toEqual(dist);
  });

  it('names a link of the current version into an older one as such, an error that says what to write', async () => {
    const root = await makeTree({
      ...SITE,
      'guide.md': '# Guide\n\nThe old [setup guide](/v1/guide/#steps) and a [typo](/gide/).\n',
    });
    const failed = await buildTree(root);
    expect(failed.ok).toBe(false);
    expect(messages(failed)).toEqual([
      'guide.md:3:9 cross-version link "/v1/guide/#steps": /guide/ is a page of v1, which v2\'s links do not ' +
        'reach by route; write its full address instead (https://docs.example.com/docs/v1/guide/#steps)',
      // A link that no version has a page for is a broken link, as it always was.
      'guide.md:3:47 broken link "/gide/": no page at /gide/ (did you mean "/guide/"?)',
      V1_LINK_TO_V2,
    ]);
    // Written as the full address, it is left as it is.
    await writeFile(
      path.join(root, 'content/guide.md'),
      '# Guide\n\nThe old [setup guide](https://docs.example.com/docs/v1/guide/).\n',
    );
    expect(messages(await buildTree(root))).toEqual([V1_LINK_TO_V2]);
  });

  it('fails when a strict version has an error, leaving every output as it was', async () => {
    const root = await makeTree({ ...SITE, '_site.yaml': SITE['_site.yaml'].replace('    strict: false\n', '') });
    await writeFile(path.join(root, 'v1/guide.md'), '# Guide v1\n\nFine.\n');
    expect((await buildTree(root)).ok).toBe(true);
    const dist = times(path.join(root, 'dist'));
    await writeFile(path.join(root, 'content/guide.md'), '# Guide\n\nEdited.\n');
    await writeFile(path.join(root, 'v1/guide.md'), '# Guide v1\n\nA [broken](/nowhere/) link.\n');
    const failed = await buildTree(root);
    expect(messages(failed)).toEqual(['../v1/guide.md:3:3 broken link "/nowhere/": no page at /nowhere/']);
    expect(failed.ok).toBe(false);
    expect(times(path.join(root, 'dist'))).toEqual(dist);
    const leftovers = readdirSync(path.join(root, 'dist'), { recursive: true }).filter((n) =>
      String(n).includes('.replacing-'),
    );
    expect(leftovers).toEqual([]);
  });
});
