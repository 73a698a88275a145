import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pngImage } from '../../../../helpers/png';
import { renderGuidePage } from '../../../../helpers/render-page';

/** Renders a page body of `guide/page.md` in a content folder as the build does (code left as it is). */
const render = (body: string, contentDir?: string) => renderGuidePage(body, { contentDir });

describe('headings', () => {
  it('take the id written after them as {#id}, and keep it out of their text and the table of contents', () => {
    const { page, messages } = render('# Page\n\n## Get the current user {#getCurrentUser}\n\nText.\n');
    expect(messages).toEqual([]);
    expect(page?.html).toContain('<h2 id="getCurrentUser" tabindex="-1">');
    expect(page?.html).toContain('>Get the current user<a class="header-anchor" href="#getCurrentUser"');
    expect(page?.analysis.headers).toEqual([{ level: 2, title: 'Get the current user', slug: 'getCurrentUser' }]);
    expect(page?.analysis.anchors).toContain('getCurrentUser');
  });
});

describe('raw HTML images', () => {
  it('get the width, height, decoding and lazy loading of their file, as markdown images do', async () => {
    const contentDir = await mkdtemp(path.join(tmpdir(), 'docs-raw-img-'));
    await mkdir(path.join(contentDir, 'guide'));
    await writeFile(path.join(contentDir, 'guide/wide.png'), pngImage(1200, 600));
    await writeFile(path.join(contentDir, 'guide/small.png'), pngImage(40, 30));
    const body = [
      '# Page',
      '',
      '<img src="./small.png" alt="first">',
      '',
      '## Screens',
      '',
      '<p><img src="wide.png" alt="later"></p>',
      '',
      '<img src="./small.png" width="20" alt="sized by the writer" loading="eager">',
      '',
      '<img src="https://example.com/remote.png" alt="remote">',
      '',
    ].join('\n');
    const { page, messages } = render(body, contentDir);
    expect(messages).toEqual([]);
    const images = page?.html.match(/<img [^>]*>/g) ?? [];
    expect(images).toHaveLength(4);
    // The first image above the first section may be on the first screen: it loads at once.
    expect(images[0]).toMatch(
      /^<img src="\/docs\/assets\/img\/small\.[0-9a-f]+\.png" width="40" height="30" decoding="async" alt="first" ?\/?>$/,
    );
    expect(images[1]).toMatch(/ width="1200" height="600" decoding="async" loading="lazy"/);
    expect(images[2]).not.toContain('height=');
    expect(images[2]).toContain('width="20"');
    expect(images[2]).toContain('loading="eager"');
    expect(images[3]).toBe('<img src="https://example.com/remote.png" alt="remote" />');
  });
});
