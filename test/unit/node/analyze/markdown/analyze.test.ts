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
    // The build reads the size of the files it copies; it would have to download a remote image.
    expect(messages).toEqual([
      'guide/page.md:11:1 warning: remote image "https://example.com/remote.png" has no size the build can read, so the text after it moves when it loads: give the <img> a width and a height, or copy the image into the content folder',
    ]);
    const images = page?.html.match(/<img [^>]*>/g) ?? [];
    expect(images).toHaveLength(4);
    // The first image above the first section may be on the first screen: it loads at once.
    expect(images[0]).toMatch(
      /^<img src="\/docs\/assets\/img\/small\.[0-9a-f]+\.png" width="40" height="30" decoding="async" alt="first" ?\/?>$/,
    );
    expect(images[1]).toMatch(/ width="1200" height="600" decoding="async" loading="lazy"/);
    // A writer's lone width gets the height that keeps the image's proportions (40 × 30).
    expect(images[2]).toMatch(/ height="15" decoding="async" width="20" alt="sized by the writer" loading="eager"/);
    expect(images[2]).toContain('loading="eager"');
    expect(images[3]).toBe('<img src="https://example.com/remote.png" alt="remote" />');
  });

  it("in a <picture> take the source's rewritten URL, and an <img> without a src the size of that source's image", async () => {
    const contentDir = await mkdtemp(path.join(tmpdir(), 'docs-raw-img-'));
    await mkdir(path.join(contentDir, 'guide'));
    await writeFile(path.join(contentDir, 'desktop.png'), pngImage(1482, 788));
    await writeFile(path.join(contentDir, 'guide/mobile.png'), pngImage(411, 387));
    const body = [
      '# Page',
      '',
      '## Screens',
      '',
      '<picture>',
      '  <source srcset="/desktop.png" media="(min-width: 719px)">',
      '  <img class="snap" alt="Desktop">',
      '</picture>',
      '',
      '<picture>',
      '  <source srcset="./mobile.png 1x, /desktop.png 2x">',
      '  <img class="snap" alt="Mobile">',
      '</picture>',
      '',
    ].join('\n');
    const { page, messages } = render(body, contentDir);
    expect(messages).toEqual([]);
    const sources = page?.html.match(/<source [^>]*>/g) ?? [];
    expect(sources[0]).toMatch(/^<source srcset="\/docs\/assets\/img\/desktop\.[0-9a-f]+\.png" media=/);
    expect(sources[1]).toMatch(
      /^<source srcset="\/docs\/assets\/img\/mobile\.[0-9a-f]+\.png 1x, \/docs\/assets\/img\/desktop\.[0-9a-f]+\.png 2x"/,
    );
    const images = page?.html.match(/<img [^>]*>/g) ?? [];
    expect(images).toEqual([
      '<img width="1482" height="788" decoding="async" loading="lazy" class="snap" alt="Desktop" />',
      '<img width="411" height="387" decoding="async" loading="lazy" class="snap" alt="Mobile" />',
    ]);
  });

  it('of a local file all get a width and a height, however the writer sized them', async () => {
    const contentDir = await mkdtemp(path.join(tmpdir(), 'docs-raw-img-'));
    await mkdir(path.join(contentDir, 'guide'));
    await writeFile(path.join(contentDir, 'guide/photo.png'), pngImage(1000, 500));
    const body = [
      '# Page',
      '',
      '![Markdown](./photo.png)',
      '',
      '<img src="./photo.png" alt="Plain">',
      '<img src="./photo.png" width="300" alt="Pixels">',
      '<img src="./photo.png" width="300px" alt="Pixels with a unit">',
      '<img src="./photo.png" width="40%" alt="Share">',
      '<img src="./photo.png" height="120" alt="Height">',
      '',
      '<picture>',
      '  <source srcset="./photo.png">',
      '  <img alt="Picture">',
      '</picture>',
      '',
    ].join('\n');
    const { page, messages } = render(body, contentDir);
    expect(messages).toEqual([]);
    const images = page?.html.match(/<img [^>]*>/g) ?? [];
    const sized = images.filter((img) => / width="\d+"/.test(img) && / height="\d+"/.test(img));
    expect(images).toHaveLength(7);
    expect(sized).toEqual(images);
  });

  it('with only a width or a height, in pixels or a share of the column, get the other side in proportion', async () => {
    const contentDir = await mkdtemp(path.join(tmpdir(), 'docs-raw-img-'));
    await mkdir(path.join(contentDir, 'guide'));
    await writeFile(path.join(contentDir, 'guide/photo.png'), pngImage(1000, 500));
    const sized = (attributes: string) => {
      const { page, messages } = render(`# Page\n\n<img alt="x" ${attributes} src="./photo.png">\n`, contentDir);
      expect(messages).toEqual([]);
      return /<img [^>]*>/.exec(page?.html ?? '')?.[0].replace(/ src="[^"]+"/, '');
    };
    expect(sized('width="300"')).toBe('<img alt="x" width="300" height="150" decoding="async" />');
    expect(sized('width="300px"')).toBe('<img alt="x" width="300" height="150" decoding="async" />');
    // 50 % of the 780 px column at its widest; the stylesheet scales it down with the column.
    expect(sized('width="50%"')).toBe('<img alt="x" width="390" height="195" decoding="async" />');
    expect(sized('height="100"')).toBe('<img alt="x" height="100" width="200" decoding="async" />');
    // A length in another unit is read as a browser reads the attribute: its number, in pixels.
    expect(sized('width="30em"')).toBe('<img alt="x" width="30" height="15" decoding="async" />');
    // Both sides given, or a side with no number: the writer's tag stays as written.
    expect(sized('width="300" height="20"')).toBe('<img alt="x" width="300" height="20" decoding="async" />');
    expect(sized('width="auto"')).toBe('<img alt="x" width="auto" decoding="async" />');
  });

  it('from another site are warned of at their line unless given both sides, in markdown and raw HTML', () => {
    const body = [
      '# Page',
      '',
      '![build](https://img.shields.io/badge/build-passing-green.svg)',
      '',
      '<img src="//example.com/logo.png" width="120" alt="logo">',
      '',
      '<img src="https://example.com/banner.png" width="88" height="31" alt="banner">',
      '',
    ].join('\n');
    const { page, messages } = render(body);
    expect(messages).toEqual([
      'guide/page.md:3:1 warning: remote image "https://img.shields.io/badge/build-passing-green.svg" has no size the build can read, so the text after it moves when it loads: write it as <img src="https://img.shields.io/badge/build-passing-green.svg" width="…" height="…">, or copy the image into the content folder',
      'guide/page.md:5:1 warning: remote image "//example.com/logo.png" has no size the build can read, so the text after it moves when it loads: give the <img> a width and a height, or copy the image into the content folder',
    ]);
    // Shown all the same, as written.
    expect(page?.html.match(/<img [^>]*>/g)).toHaveLength(3);
  });
});
